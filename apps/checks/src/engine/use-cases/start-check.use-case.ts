import { randomBytes, randomUUID } from 'node:crypto';

import type { CheckStatus } from '@kyc/contracts';
import {
  Clock,
  GroupCommit,
  Job,
  JOB_COMPLETED,
  JobQueueService,
  JobRow,
  mapRow,
  OutboxRow,
  OutboxService,
  preparedQuery,
  writeQuery,
} from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { CheckEntity } from '../../checks/check.entity';
import { effectiveInputs } from '../../checks/check-inputs';
import { CollectorRegistry } from '../../collectors/collector.registry';
import { ChecksConfig } from '../../config/checks.config';
import { CheckDatabaseEntity } from '../check-database.entity';
import { askDatabase, asksInline, collectAttempts, collectBackoffMs, missingCredentials } from '../collector-call';
import { COLLECT_QUEUE, CollectJob, Run, RunRow, runRow, StartJob, TIMER_QUEUE } from '../engine.types';
import { LOAD_FOR_START_SQL, LOCK_CHECK_SQL, startSql } from '../engine-sql';
import { SettleCheck } from './settle-check.use-case';

export const newDetailId = () => `DTL${randomUUID().replace(/-/g, '')}`;

/** One check's start as startSql writes it (the columns of the rows it writes). */
interface StartItem {
  id: string;
  tenant_id: string;
  status: CheckStatus;
  score: number;
  id_score: number;
  homonym_score: number;
  result: unknown;
  started_at: Date | null;
  deadline_at: Date | null;
  updated_at: Date;
  finished_at: Date | null;
  databases: Record<string, unknown>[];
}

/** A start with what it writes besides the check (the statement's other parameters). */
interface Start {
  item: StartItem;
  job: Job<StartJob>;
  runs: RunRow[];
  events: OutboxRow[];
  jobs: JobRow[];
}

/**
 * Start (`checks.start`, queued by the create statement): plans the databases the check's type,
 * country and inputs allow (one row each; the others are listed as `skipped` with the inputs they
 * lack). It first asks, concurrently and outside any transaction, every synchronous database
 * without credentials or first-ask delay whose declared answer time is at most
 * CHECKS_INLINE_COLLECT_MAX_MS. Then one statement (startSql) starts the check if it is still
 * not_started (a re-run or another worker finds it started): the database rows with those
 * outcomes, their collector runs, the settled check (finished, with its event, when all are
 * final), one `checks.collect` job per database not answered inline, a `checks.timer` job while
 * something is open, and the start job's completion. Concurrent starts share that statement and
 * its commit (GroupCommit); a finishing check with a CheckFinishedExtension runs it in a
 * transaction where the extension runs first.
 */
@Injectable()
export class StartCheck {
  /** Start statements of concurrent start jobs, grouped. */
  private readonly starts: GroupCommit<Start, boolean>;
  private readonly startText: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueueService,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
    private readonly config: ChecksConfig,
    private readonly registry: CollectorRegistry,
    private readonly settle: SettleCheck,
  ) {
    this.startText = startSql(outbox, jobs);
    // Two groups in flight: while one commits, the start jobs finishing meanwhile form the next.
    this.starts = new GroupCommit((items) => this.write(items), { maxBatch: 64, maxInFlight: 2 });
  }

  async execute(job: Job<StartJob>): Promise<void | typeof JOB_COMPLETED> {
    const tenantId = job.tenantId;
    if (!tenantId) return;
    const [found] = await preparedQuery<Record<string, unknown> & { stored_credentials: string[] }>(
      this.dataSource,
      'checks.engine.load',
      LOAD_FOR_START_SQL,
      [job.payload.check_id, tenantId],
    );
    if (!found || found.status !== 'not_started') return;
    const check = mapRow(this.dataSource.getRepository(CheckEntity), found);
    const now = this.clock.now();
    const settings = this.settle.settingsOf(check);
    const deadlineAt = new Date(check.createdAt.getTime() + settings.maxDurationMinutes * 60_000);
    const rows = this.plan(check, new Set(found.stored_credentials), now);

    // Ask the quick synchronous databases now, concurrently, outside any transaction.
    const max = this.config.CHECKS_INLINE_COLLECT_MAX_MS;
    const inline =
      now < deadlineAt
        ? rows.filter((r) => r.status === 'not_started' && asksInline(this.registry, max, check, r.databaseId))
        : [];
    const timeoutMs = Math.max(1_000, Math.floor(this.config.CHECKS_WORKER_LOCK_MS / 2));
    const asked = await Promise.all(
      inline.map(async (row) => {
        row.attempts = 1;
        const collector = this.registry.get(row.databaseId)!;
        return { row, result: await askDatabase(collector, check, row, { now, attempt: 1, timeoutMs }) };
      }),
    );
    const done = inline.length ? this.clock.now() : now;
    const runs: Run[] = [];
    const jobs: JobRow[] = [];
    const collectJob = (row: CheckDatabaseEntity, runAt: Date, key: string) =>
      jobs.push(
        this.jobs.row<CollectJob>(
          COLLECT_QUEUE,
          { check_id: check.id, database_row_id: row.id },
          { tenantId, runAt, maxAttempts: collectAttempts(settings), dedupeKey: `collect:${row.id}:${key}` },
        ),
      );
    for (const { row, result } of asked) {
      if (result.kind === 'failed') {
        runs.push({ row, outcome: 'error' });
        // Retried by its own job with the collect queue's backoff, as a failed collect job would be.
        if (!result.permanent && settings.retries)
          collectJob(row, new Date(done.getTime() + collectBackoffMs(1)), 'start');
        else
          Object.assign(row, {
            status: 'error',
            message: result.message.slice(0, 500),
            answeredAt: done,
            updatedAt: done,
          });
      } else if (result.outcome.kind === 'answer') {
        runs.push({ row, outcome: 'success' });
        Object.assign(row, { status: 'completed', answer: result.outcome, answeredAt: done, updatedAt: done });
      } else if (result.outcome.pollAt) collectJob(row, result.outcome.pollAt, String(result.outcome.pollAt.getTime()));
    }
    const askedIds = new Set(inline.map((r) => r.id));
    for (const row of rows.filter((r) => r.status === 'not_started' && !askedIds.has(r.id))) {
      const c = { country: check.country, type: check.type, region: check.region };
      const delay = this.registry.get(row.databaseId)?.firstAskDelayMs?.(c) ?? 0;
      collectJob(row, new Date(now.getTime() + Math.max(0, delay)), 'start');
    }

    check.startedAt = now;
    check.deadlineAt = deadlineAt;
    const finished = this.settle.evaluate(check, rows, done);
    const timer = finished ? null : this.settle.timerJob(check, rows, done);
    if (timer)
      jobs.push(
        this.jobs.row(TIMER_QUEUE, timer.payload, { tenantId, runAt: timer.runAt, dedupeKey: timer.dedupeKey }),
      );
    const start = (events: OutboxRow[]): Start => ({
      item: startItem(check, rows, finished),
      job,
      runs: runs.map((run) => runRow(run, done)),
      events,
      jobs,
    });
    if (!finished || !this.settle.extended(check)) {
      const started = await this.starts.submit(
        start(finished ? [this.outbox.row(this.settle.finishedEvent(check, {}))] : []),
      );
      if (started && finished) this.settle.logFinished(check);
      return JOB_COMPLETED;
    }
    // A finishing check with extensions: they run first, in the statement's transaction, under the check's lock.
    return this.dataSource.transaction(async (m) => {
      const [locked] = await m.query<{ status: string }[]>(LOCK_CHECK_SQL, [check.id, tenantId]);
      if (locked?.status !== 'not_started') return undefined;
      const extra = await this.settle.finishedExtra(m, check);
      await this.write([start([this.outbox.row(this.settle.finishedEvent(check, extra))])], m);
      this.settle.logFinished(check);
      return JOB_COMPLETED;
    });
  }

  /** The check's databases, planned (not stored): not_started, skipped, or error for missing credentials. */
  private plan(check: CheckEntity, withCredentials: Set<string>, now: Date): CheckDatabaseEntity[] {
    const plan = this.registry.plan({
      country: check.country,
      type: check.type,
      region: check.region,
      inputs: effectiveInputs(check.inputs, check.region),
      weights: this.settle.weightsOf(check),
    });
    return plan.map(({ collector, search, invalidInputs }) => {
      // A database that needs credentials the tenant has not stored fails at once, saying how to add them.
      const missing = !!search && collector.needsCredentials && !withCredentials.has(collector.databaseId);
      return Object.assign(new CheckDatabaseEntity(), {
        id: newDetailId(),
        checkId: check.id,
        tenantId: check.tenantId,
        databaseId: collector.databaseId,
        databaseName: collector.databaseName,
        country: collector.country,
        dataSets: [...collector.dataSets],
        status: missing ? 'error' : search ? 'not_started' : 'skipped',
        searchBy: search?.by ?? null,
        invalidInputs: invalidInputs ?? null,
        message: missing ? missingCredentials(collector.databaseId) : null,
        answer: null,
        reference: `REF${randomBytes(16).toString('hex')}`,
        attempts: 0,
        requestedAt: search ? now : null,
        expectedAt: search ? new Date(now.getTime() + collector.expectedLatencyMs) : null,
        answeredAt: null,
        createdAt: now,
        updatedAt: now,
      });
    });
  }

  /**
   * Starts checks with one statement (startSql): grouped ones alone, as one autocommit transaction
   * (one round trip, one commit and WAL flush for all), or in the caller's transaction. Returns,
   * per start in order, whether its check started.
   */
  private async write(starts: Start[], m?: EntityManager): Promise<boolean[]> {
    // Unnamed: its join with checks is planned at each call, for the table's size now (see rawQuery).
    const rows = await writeQuery<{ i: number; started: boolean }>(
      this.dataSource,
      this.startText,
      [
        JSON.stringify(starts.map((s, i) => ({ ...s.item, i }))),
        starts.map((s) => s.item.id),
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
function startItem(check: CheckEntity, rows: CheckDatabaseEntity[], finished: boolean): StartItem {
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
