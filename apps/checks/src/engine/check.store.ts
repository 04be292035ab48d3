import {
  captureTraceContext,
  findOneRaw,
  GroupCommit,
  Job,
  JobQueueService,
  JobRow,
  mapRow,
  OutboxRow,
  OutboxService,
  preparedQuery,
  TraceCarrier,
  tracingActive,
  writeQuery,
} from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { ChecksConfig } from '../config/checks.config';
import { CheckEntity } from './check.entity';
import {
  CHECK_DATABASES_SQL,
  COUNT_ATTEMPT_SQL,
  createSql,
  insertRunsSql,
  LOAD_FOR_START_SQL,
  LOCK_CHECK_SQL,
  presentedCheckSql,
  recordSql,
  startSql,
  timerSql,
} from './check.sql';
import { CheckDatabaseEntity } from './check-database.entity';
import { createdEvent } from './check-record';
import { RunRow, START_QUEUE, StartJob } from './engine.types';

/** A new check (not stored) with what its store needs to know. */
export interface NewCheck {
  check: CheckEntity;
  builtIn: boolean;
  /** force_creation: no de-duplication against a recent check with the same inputs. */
  force: boolean;
  /**
   * The trace context of the request that creates it (when tracing runs), captured before the
   * check joins a group: its event and start job continue that request's trace, not the trace
   * of whichever request's statement stores the group.
   */
  trace?: TraceCarrier | null;
}

/** What storing a check gave: created, an existing recent one with its inputs, or its custom type is unknown. */
export interface StoreOutcome {
  outcome: 'created' | 'existing' | 'unknown_type';
  id: string;
}

/** A check started by the start job (its settled state, databases, runs, events and jobs): one item of startSql. */
export interface StartWrite {
  check: CheckEntity;
  rows: CheckDatabaseEntity[];
  finished: boolean;
  /** The start job, completed by the statement whether its check started or not. */
  job: Job<StartJob>;
  runs: RunRow[];
  events: OutboxRow[];
  jobs: JobRow[];
}

/** One database's recorded outcome with the settled check (recordSql). */
export interface RecordWrite {
  check: CheckEntity;
  row: CheckDatabaseEntity;
  now: Date;
  finished: boolean;
  runs: RunRow[];
  events: OutboxRow[];
  /** The collect job that asked: it completes with the record. */
  job?: Job;
}

/** A timer's changes with the settled check (timerSql). */
export interface TimerWrite {
  check: CheckEntity;
  changed: CheckDatabaseEntity[];
  now: Date;
  finished: boolean;
  runs: RunRow[];
  events: OutboxRow[];
  jobs: JobRow[];
}

/** Statements of CheckStore.presented (name and text), per property list, built on first use (names last as long as the process). */
const presentedStatements = new Map<string, { name: string; text: string }>();

/**
 * The check aggregate's store: the one writer of checks, check_databases and their collector_runs
 * with the events and jobs that go with them, and the hot reads of the engine and of GET
 * /v1/checks/{id}, each one statement of check.sql.ts through the platform's raw-query API.
 *
 * Creation: one statement (createSql) for any number of checks. Without a caller's transaction,
 * concurrent creations are grouped: those that arrive while CHECKS_CREATE_GROUP_IN_FLIGHT
 * statements run are stored together by the next (one commit and WAL flush for many checks). A
 * check with the inputs of one before it that is waiting or being stored (and no force_creation)
 * waits for a later statement, so it is de-duplicated against it. Concurrent starts are grouped
 * the same way (startSql, two groups in flight).
 */
@Injectable()
export class CheckStore {
  private readonly createText: string;
  private readonly startText: string;
  private readonly recordText: string;
  private readonly timerText: string;
  private readonly creations: GroupCommit<NewCheck, StoreOutcome>;
  private readonly starts: GroupCommit<StartWrite, boolean>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly jobs: JobQueueService,
    private readonly config: ChecksConfig,
  ) {
    this.createText = createSql(outbox, jobs);
    this.startText = startSql(outbox, jobs);
    this.recordText = recordSql(outbox, jobs);
    this.timerText = timerSql(outbox, jobs);
    this.creations = new GroupCommit((items) => this.create(items), {
      maxBatch: 200,
      maxInFlight: config.CHECKS_CREATE_GROUP_IN_FLIGHT,
      ordering: { key: ({ check }) => `${check.tenantId}:${check.inputHash}`, mustSeeEarlier: (item) => !item.force },
    });
    // Two groups in flight: while one commits, the start jobs finishing meanwhile form the next.
    this.starts = new GroupCommit((items) => this.start(items), { maxBatch: 64, maxInFlight: 2 });
  }

  /** Stores one check: in the caller's transaction with `manager`, else grouped with concurrent ones. */
  createOne(item: NewCheck, manager?: EntityManager): Promise<StoreOutcome> {
    if (manager) return this.create([item], manager).then(([outcome]) => outcome);
    if (tracingActive()) item.trace = captureTraceContext();
    return this.creations.submit(item);
  }

  /**
   * Stores checks with their created events and start jobs in one statement (its own transaction
   * when no manager is given) and says, per check in order, what became of it.
   */
  async create(items: NewCheck[], manager?: EntityManager): Promise<StoreOutcome[]> {
    if (!items.length) return [];
    const checks = items.map(({ check, builtIn, force }, i) => ({
      i,
      id: check.id,
      tenant_id: check.tenantId,
      country: check.country,
      type: check.type,
      inputs: check.inputs,
      input_hash: check.inputHash,
      force,
      built_in: builtIn,
      custom_input: check.customInput,
      report_id: check.reportId,
      user_authorized: check.userAuthorized,
      created_by: check.createdBy,
      created_at: check.createdAt,
      region: check.region,
      previous_check: check.previousCheck,
      rule_depth: check.ruleDepth,
      requested_by_execution: check.requestedByExecution,
    }));
    // An item's trace (captured by createOne), else the active one (undefined: captured by row()).
    const events = items.map(({ check, trace }) => this.outbox.row(createdEvent(check, trace)));
    const startJobs = items.map(({ check, trace }) =>
      this.jobs.row<StartJob>(
        START_QUEUE,
        { check_id: check.id },
        { tenantId: check.tenantId, maxAttempts: 10, runAt: check.createdAt, traceContext: trace },
      ),
    );
    const rows = await writeQuery<StoreOutcome & { i: number }>(
      this.dataSource,
      this.createText,
      [
        JSON.stringify(checks),
        this.config.CHECKS_DEDUP_WINDOW_SECONDS,
        JSON.stringify(events),
        JSON.stringify(startJobs),
      ],
      manager,
    );
    return rows.map(({ outcome, id }) => ({ outcome, id }));
  }

  /**
   * The given properties of a check of a tenant and its result as JSON text as stored (GET
   * /v1/checks/{id}: the result is neither parsed nor serialized again), or null.
   */
  async presented<K extends keyof CheckEntity>(
    tenantId: string,
    checkId: string,
    properties: readonly K[],
  ): Promise<{ check: Pick<CheckEntity, K>; resultJson: string | null } | null> {
    const key = properties.join(',');
    let statement = presentedStatements.get(key);
    if (!statement) {
      const metadata = this.dataSource.getMetadata(CheckEntity);
      const columns = properties.map((p) => metadata.findColumnWithPropertyName(p as string)!.databaseName);
      statement = { name: `checks.presented.${presentedStatements.size}`, text: presentedCheckSql(columns) };
      presentedStatements.set(key, statement);
    }
    const [row] = await preparedQuery<Record<string, unknown> & { result_json: string | null }>(
      this.dataSource,
      statement.name,
      statement.text,
      [tenantId, checkId],
    );
    if (!row) return null;
    return { check: mapRow(this.dataSource.getRepository(CheckEntity), row), resultJson: row.result_json };
  }

  /** A check and the databases its tenant stored credentials for, in one read (the start job). */
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

  /** The tenant's check by id (SELECT * as a named prepared statement, through the columns' transformers). */
  findForTenant(tenantId: string, id: string): Promise<CheckEntity | null> {
    return findOneRaw(this.dataSource.getRepository(CheckEntity), { tenantId, id });
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
        w.check.status,
        w.check.score,
        w.check.idScore,
        w.check.homonymScore,
        JSON.stringify(w.check.result),
        w.finished ? w.check.finishedAt : null,
        JSON.stringify(w.runs),
        JSON.stringify(w.events),
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
        w.check.status,
        w.check.score,
        w.check.idScore,
        w.check.homonymScore,
        JSON.stringify(w.check.result),
        w.finished ? w.check.finishedAt : null,
        JSON.stringify(w.runs),
        JSON.stringify(w.events),
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
    // Unnamed: its join with checks is planned at each call, for the table's size now (see rawQuery).
    const rows = await writeQuery<{ i: number; started: boolean }>(
      this.dataSource,
      this.startText,
      [
        JSON.stringify(starts.map((s, i) => ({ ...startItem(s), i }))),
        starts.map((s) => s.check.id),
        JSON.stringify(starts.flatMap((s) => s.events)),
        JSON.stringify(starts.flatMap((s) => s.jobs)),
        starts.map((s) => s.job.id),
        starts.map((s) => s.job.attempt),
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
