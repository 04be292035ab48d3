import {
  findOneRaw,
  GroupCommit,
  Job,
  JobQueueService,
  JobRow,
  JobSource,
  mapRow,
  OutboxRow,
  OutboxService,
  preparedQuery,
  writeQuery,
} from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { CheckEntity } from './check.entity';
import { CheckDatabaseEntity } from './check-database.entity';
import {
  CHECK_DATABASES_SQL,
  COUNT_ATTEMPT_SQL,
  insertRunsSql,
  LOAD_FOR_START_SQL,
  LOCK_CHECK_SQL,
  recordSql,
  START_CLAIM_SQL,
  START_DUE_SQL,
  START_FAIL_SQL,
  startSql,
  timerSql,
} from './check-run.sql';
import { RunRow, START_QUEUE, StartJob } from './engine.types';

/** A check started by its start (a claimed check or a start job; its settled state, databases, runs, events and jobs): one item of startSql. */
export interface StartWrite {
  check: CheckEntity;
  rows: CheckDatabaseEntity[];
  finished: boolean;
  /** The start's work item: a start job is completed by the statement whether its check started or not. */
  job: Job<StartJob>;
  runs: RunRow[];
  events: OutboxRow[];
  jobs: JobRow[];
}

/** The settled check, its collector runs and its events: what a record and a timer both write (settledCheckSql). */
interface Settlement {
  check: CheckEntity;
  now: Date;
  finished: boolean;
  runs: RunRow[];
  events: OutboxRow[];
}

/** One database's recorded outcome with the settled check (recordSql). */
export interface RecordWrite extends Settlement {
  row: CheckDatabaseEntity;
  /** The collect job that asked: it completes with the record. */
  job?: Job;
}

/** A timer's changes with the settled check (timerSql). */
export interface TimerWrite extends Settlement {
  changed: CheckDatabaseEntity[];
  jobs: JobRow[];
}

/** The parameters of settledCheckSql, in its order. */
const settledParams = (w: Settlement): unknown[] => [
  w.check.status,
  w.check.score,
  w.check.idScore,
  w.check.homonymScore,
  JSON.stringify(w.check.result),
  w.finished ? w.check.finishedAt : null,
  JSON.stringify(w.runs),
  JSON.stringify(w.events),
];

/**
 * A check's run by the engine: the one writer of a stored check's state, scores and result, of its
 * check_databases and collector_runs, and of the finished events and engine jobs that go with
 * them, and the engine's reads and locks, each one statement of check-run.sql.ts through the
 * platform's raw-query API. (CheckStore inserts the check; nothing else writes these tables.)
 *
 * Concurrent starts are grouped (startSql, two groups in flight): while one commits, the start
 * jobs finishing meanwhile form the next.
 */
@Injectable()
export class CheckRunStore {
  private readonly startText: string;
  private readonly recordText: string;
  private readonly timerText: string;
  private readonly starts: GroupCommit<StartWrite, boolean>;

  constructor(
    private readonly dataSource: DataSource,
    outbox: OutboxService,
    jobs: JobQueueService,
  ) {
    this.startText = startSql(outbox, jobs);
    this.recordText = recordSql(outbox, jobs);
    this.timerText = timerSql(outbox, jobs);
    this.starts = new GroupCommit((items) => this.start(items), { maxBatch: 64, maxInFlight: 2 });
  }

  /** A check and the databases its tenant stored credentials for, in one read (the start job). */
  /** The checks waiting to start as the start queue's work items (no start job): WAITING_START_QUEUE. */
  readonly startSource: JobSource = { dueSql: START_DUE_SQL, claimSql: START_CLAIM_SQL, failSql: START_FAIL_SQL };

  async loadForStart(
    checkId: string,
    tenantId: string,
  ): Promise<{ check: CheckEntity; credentials: Set<string> } | null> {
    const [found] = await preparedQuery<Record<string, unknown> & { stored_credentials: string[] }>(
      this.dataSource,
      'checks.engine.load',
      LOAD_FOR_START_SQL,
      [checkId, tenantId],
    );
    if (!found) return null;
    return {
      check: mapRow(this.dataSource.getRepository(CheckEntity), found),
      credentials: new Set(found.stored_credentials),
    };
  }

  /** A check and one of its databases, unlocked (the collect job). */
  findWithDatabase(
    checkId: string,
    rowId: string,
    tenantId: string,
  ): Promise<[CheckEntity | null, CheckDatabaseEntity | null]> {
    const manager = this.dataSource.manager;
    return Promise.all([
      findOneRaw(manager.getRepository(CheckEntity), { id: checkId, tenantId }),
      findOneRaw(manager.getRepository(CheckDatabaseEntity), { id: rowId, tenantId }),
    ]);
  }

  /** The database row that asked a query with this reference, with its check (webhook answers). */
  async findByReference(reference: string): Promise<{ row: CheckDatabaseEntity; check: CheckEntity | null } | null> {
    const manager = this.dataSource.manager;
    const row = await manager.findOneBy(CheckDatabaseEntity, { reference });
    if (!row) return null;
    return { row, check: await manager.findOneBy(CheckEntity, { id: row.checkId, tenantId: row.tenantId }) };
  }

  /** The check, locked, then its databases (in their order), in the caller's transaction. */
  async lockWithDatabases(
    m: EntityManager,
    checkId: string,
    tenantId: string,
  ): Promise<{ check: CheckEntity; rows: CheckDatabaseEntity[] } | null> {
    const [found] = await preparedQuery(this.dataSource, 'checks.engine.lock', LOCK_CHECK_SQL, [checkId, tenantId], m);
    if (!found) return null;
    const rows = await preparedQuery(
      this.dataSource,
      'checks.engine.databases',
      CHECK_DATABASES_SQL,
      [checkId, tenantId],
      m,
    );
    const databases = m.getRepository(CheckDatabaseEntity);
    return { check: mapRow(m.getRepository(CheckEntity), found), rows: rows.map((r) => mapRow(databases, r)) };
  }

  /** The status of a check, locked in the caller's transaction (undefined: gone). */
  async lockStatus(m: EntityManager, checkId: string, tenantId: string): Promise<string | undefined> {
    const [locked] = await preparedQuery<{ status: string }>(
      this.dataSource,
      'checks.engine.lock',
      LOCK_CHECK_SQL,
      [checkId, tenantId],
      m,
    );
    return locked?.status;
  }

  /** Counts one more attempt at a database; returns the attempts so far. */
  async countAttempt(rowId: string): Promise<number> {
    const [{ attempts }] = await preparedQuery<{ attempts: number }>(
      this.dataSource,
      'checks.engine.attempt',
      COUNT_ATTEMPT_SQL,
      [rowId],
    );
    return attempts;
  }

  /** Runs of databases for the health dashboard (success, error or timeout, with their latency), in one statement. */
  async recordRuns(runs: RunRow[], m?: EntityManager): Promise<void> {
    if (!runs.length) return;
    await writeQuery(this.dataSource, insertRunsSql('$1'), [JSON.stringify(runs)], m);
  }

  /** Starts a check (startSql), grouped with concurrent starts, or in the caller's transaction. Returns whether it started. */
  startOne(start: StartWrite, m?: EntityManager): Promise<boolean> {
    if (m) return this.start([start], m).then(([started]) => started);
    return this.starts.submit(start);
  }

  /** One database's outcome, the settled check, its runs, events and the job's completion, in one statement (recordSql). */
  async record(m: EntityManager, w: RecordWrite): Promise<void> {
    await preparedQuery(
      this.dataSource,
      'checks.engine.record',
      this.recordText,
      [
        w.row.id,
        w.check.id,
        w.row.status,
        w.row.answer === null ? null : JSON.stringify(w.row.answer),
        w.row.message,
        w.now,
        ...settledParams(w),
        w.job ? [w.job.id] : [],
        w.job ? [w.job.attempt] : [],
      ],
      m,
    );
  }

  /** A timer's writes in one statement (timerSql). */
  async timer(m: EntityManager, w: TimerWrite): Promise<void> {
    await preparedQuery(
      this.dataSource,
      'checks.engine.timer',
      this.timerText,
      [
        w.check.id,
        w.now,
        JSON.stringify(w.changed.map((r) => ({ id: r.id, status: r.status, message: r.message }))),
        ...settledParams(w),
        JSON.stringify(w.jobs),
      ],
      m,
    );
  }

  /**
   * Starts checks with one statement (startSql): grouped ones alone, as one autocommit transaction
   * (one round trip, one commit and WAL flush for all), or in the caller's transaction. Returns,
   * per start in order, whether its check started.
   */
  private async start(starts: StartWrite[], m?: EntityManager): Promise<boolean[]> {
    const legacy = starts.filter((s) => s.job.queue === START_QUEUE);
    // Unnamed: its join with checks is planned at each call, for the table's size now (see rawQuery).
    const rows = await writeQuery<{ i: number; started: boolean }>(
      this.dataSource,
      this.startText,
      [
        JSON.stringify(starts.map((s, i) => ({ ...startItem(s), i }))),
        starts.map((s) => s.check.id),
        JSON.stringify(starts.flatMap((s) => s.events)),
        JSON.stringify(starts.flatMap((s) => s.jobs)),
        // Start jobs (queued by a replica of the previous version) complete; a claimed check needs nothing.
        legacy.map((s) => s.job.id),
        legacy.map((s) => s.job.attempt),
        JSON.stringify(starts.flatMap((s) => s.runs)),
      ],
      m,
    );
    return rows.map((r) => r.started);
  }
}

/** The columns of a started check and its databases, as startSql reads them. */
function startItem({ check, rows, finished }: StartWrite) {
  return {
    id: check.id,
    tenant_id: check.tenantId,
    status: check.status,
    score: check.score,
    id_score: check.idScore,
    homonym_score: check.homonymScore,
    result: check.result,
    started_at: check.startedAt,
    deadline_at: check.deadlineAt,
    updated_at: check.updatedAt,
    finished_at: finished ? check.finishedAt : null,
    databases: rows.map((r) => ({
      id: r.id,
      database_id: r.databaseId,
      database_name: r.databaseName,
      country: r.country,
      data_sets: r.dataSets,
      status: r.status,
      search_by: r.searchBy,
      invalid_inputs: r.invalidInputs,
      message: r.message,
      answer: r.answer,
      reference: r.reference,
      attempts: r.attempts,
      requested_at: r.requestedAt,
      expected_at: r.expectedAt,
      answered_at: r.answeredAt,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
    })),
  };
}
