import { randomBytes, randomUUID } from 'node:crypto';

import {
  BUILT_IN_CHECK_TYPES,
  BuiltInCheckType,
  CHECK_EVENT_TYPES,
  CheckFinishedPayload,
  CheckStatus,
  DataSet,
  NamesMatchingType,
  TOPICS,
} from '@kyc/contracts';
import {
  Clock,
  EnqueueOptions,
  findOneRaw,
  GroupCommit,
  Job,
  JOB_COMPLETED,
  JobQueueService,
  mapRow,
  OutboxRow,
  OutboxService,
  OutgoingEvent,
  preparedQuery,
  rawQuery,
  withPooledClient,
} from '@kyc/platform';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { PoolClient, QueryResult } from 'pg';
import { DataSource, EntityManager } from 'typeorm';

import { CheckEntity } from '../checks/check.entity';
import { checkRecord } from '../checks/check.presenter';
import { effectiveInputs } from '../checks/check-inputs';
import {
  Collector,
  CollectorAnswer,
  CollectorContext,
  CollectorCredentials,
  CollectorError,
  CollectorOutcome,
} from '../collectors/collector';
import { CollectorRegistry } from '../collectors/collector.registry';
import { ChecksConfig } from '../config/checks.config';
import { CredentialsService } from '../credentials/credentials.service';
import { CheckDatabaseEntity } from './check-database.entity';
import { defaultMaxDurationMinutes, defaultWeights } from './datasets';
import { fullName } from './names';
import { databaseStatuses, FINAL_DATABASE_STATUSES, scoreCheck, ScoredDatabase, summarize } from './scoring';

export const START_QUEUE = 'checks.start';
export const COLLECT_QUEUE = 'checks.collect';
export const TIMER_QUEUE = 'checks.timer';

export interface StartJob {
  check_id: string;
}
export interface CollectJob {
  check_id: string;
  database_row_id: string;
}
export interface TimerJob {
  check_id: string;
}

export interface EffectiveSettings {
  maxDurationMinutes: number;
  retries: boolean;
  namesMatching: NamesMatchingType;
}

/**
 * Adds fields to the `checks.check.finished` event of a finishing check, in the transaction that
 * finishes it (continuous checks add their run: continuous_check_id, score_change, ...).
 */
export type CheckFinishedExtension = (
  m: EntityManager,
  check: CheckEntity,
) => Promise<Partial<Omit<CheckFinishedPayload, 'check'>>>;

/** A database's outcome as the engine records it. */
export type DatabaseOutcome = CollectorAnswer | { kind: 'failure'; message: string };

type RunOutcome = 'success' | 'error' | 'timeout';
type AskResult =
  | { kind: 'outcome'; outcome: CollectorOutcome }
  | { kind: 'failed'; error: unknown; message: string; permanent: boolean };

/** Delay before retry n (1-based) of a failed database when settings have `retries`: 15 s doubling, at most 10 minutes. */
const collectBackoffMs = (n: number) => Math.min(10 * 60_000, 15_000 * 2 ** (n - 1));

interface RecordOptions {
  /** false: the outcome says nothing about the database's health (no collector run). */
  countRun?: boolean;
  /** The collect job that asked: it completes with the record. */
  job?: Job;
}
/** A database's outcome applied to its check (in memory). */
interface Applied {
  row: CheckDatabaseEntity;
  runs: { row: CheckDatabaseEntity; outcome: RunOutcome }[];
  finished: boolean;
}

const LOCK_CHECK_SQL = `SELECT * FROM checks WHERE id = $1 AND tenant_id = $2 FOR UPDATE`;
// A statement of its own after the lock: in READ COMMITTED a statement that waited for the lock
// reads everything but the locked row with the snapshot it took before waiting.
const CHECK_DATABASES_SQL = `SELECT * FROM check_databases WHERE check_id = $1 AND tenant_id = $2 ORDER BY created_at, id`;
const RECORD_SQL = `WITH d AS (
    UPDATE check_databases SET status = $3, answer = $4::jsonb, message = $5, answered_at = $6, updated_at = $6 WHERE id = $1 AND check_id = $2
  ), c AS (
    UPDATE checks SET status = $7, score = $8, id_score = $9, homonym_score = $10, result = $11::json, updated_at = $6, finished_at = COALESCE($12, finished_at) WHERE id = $2
  ), runs AS (
    INSERT INTO collector_runs (database_id, country, tenant_id, check_id, outcome, latency_ms, finished_at)
    SELECT r.database_id, r.country, r.tenant_id, $2, r.outcome, r.latency_ms, $6
      FROM jsonb_to_recordset($13::jsonb) AS r(database_id text, country text, tenant_id text, outcome text, latency_ms bigint)
  ), evt AS (
    INSERT INTO outbox (id, topic, message_key, type, tenant_id, envelope)
    SELECT e.id, e.topic, e.message_key, e.type, e.tenant_id, e.envelope
      FROM jsonb_to_recordset($14::jsonb) AS e(id uuid, topic text, message_key text, type text, tenant_id text, envelope jsonb)
  ), done AS (
    UPDATE jobs SET status = 'completed', locked_until = NULL, updated_at = now(), finished_at = now() WHERE id = $15 AND attempts = $16
  )
  SELECT 1`;

/** One check's start, as startMany stores it (the columns of the rows it writes). */
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
  job_id: string;
  job_attempt: number;
  databases: Record<string, unknown>[];
  runs: ReturnType<typeof runRow>[];
  events: OutboxRow[];
  jobs: { queue: string; payload: unknown; max_attempts: number; run_at: Date; dedupe_key: string | null }[];
}

const START_MANY_SQL = `WITH s AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS s(i int, id text, tenant_id text, status text, score double precision, id_score double precision, homonym_score double precision,
                                                    result json, started_at timestamptz, deadline_at timestamptz, updated_at timestamptz, finished_at timestamptz,
                                                    job_id bigint, job_attempt int, databases jsonb, runs jsonb, events jsonb, jobs jsonb)
  ), c AS (
    UPDATE checks ch SET status = s.status, score = s.score, id_score = s.id_score, homonym_score = s.homonym_score, result = s.result, started_at = s.started_at,
                         deadline_at = s.deadline_at, updated_at = s.updated_at, finished_at = s.finished_at
      FROM s WHERE ch.id = ANY($2::text[]) AND ch.id = s.id AND ch.tenant_id = s.tenant_id AND ch.status = 'not_started'
    RETURNING ch.id
  ), started AS (
    SELECT s.* FROM s JOIN c ON c.id = s.id
  ), d AS (
    INSERT INTO check_databases (id, check_id, tenant_id, database_id, database_name, country, data_sets, status, search_by, invalid_inputs, message, answer, reference,
                                 attempts, requested_at, expected_at, answered_at, created_at, updated_at)
    SELECT r.id, st.id, st.tenant_id, r.database_id, r.database_name, r.country, r.data_sets, r.status, r.search_by, r.invalid_inputs, r.message, r.answer, r.reference,
           r.attempts, r.requested_at, r.expected_at, r.answered_at, r.created_at, r.updated_at
      FROM started st, jsonb_to_recordset(st.databases) AS r(id text, database_id text, database_name text, country text, data_sets jsonb, status text, search_by text,
                                                              invalid_inputs jsonb, message text, answer jsonb, reference text, attempts int, requested_at timestamptz,
                                                              expected_at timestamptz, answered_at timestamptz, created_at timestamptz, updated_at timestamptz)
  ), runs AS (
    INSERT INTO collector_runs (database_id, country, tenant_id, check_id, outcome, latency_ms, finished_at)
    SELECT r.database_id, r.country, st.tenant_id, st.id, r.outcome, r.latency_ms, st.updated_at
      FROM started st, jsonb_to_recordset(st.runs) AS r(database_id text, country text, outcome text, latency_ms bigint)
  ), evt AS (
    INSERT INTO outbox (id, topic, message_key, type, tenant_id, envelope)
    SELECT e.id, e.topic, e.message_key, e.type, e.tenant_id, e.envelope
      FROM started st, jsonb_to_recordset(st.events) AS e(id uuid, topic text, message_key text, type text, tenant_id text, envelope jsonb)
  ), jb AS (
    INSERT INTO jobs (queue, tenant_id, payload, max_attempts, run_at, dedupe_key)
    SELECT j.queue, st.tenant_id, j.payload, j.max_attempts, j.run_at, j.dedupe_key
      FROM started st, jsonb_to_recordset(st.jobs) AS j(queue text, payload jsonb, max_attempts int, run_at timestamptz, dedupe_key text)
    ON CONFLICT (dedupe_key) DO NOTHING
  ), done AS (
    UPDATE jobs SET status = 'completed', locked_until = NULL, updated_at = now(), finished_at = now()
      FROM started st WHERE jobs.id = ANY($3::bigint[]) AND jobs.id = st.job_id AND jobs.attempts = st.job_attempt
  )
  SELECT s.i, c.id IS NOT NULL AS started FROM s LEFT JOIN c ON c.id = s.id ORDER BY s.i`;

const FINISHED: readonly CheckStatus[] = ['completed', 'error'];
const isFinal = (row: CheckDatabaseEntity) => FINAL_DATABASE_STATUSES.includes(row.status);
export const newDetailId = () => `DTL${randomUUID().replace(/-/g, '')}`;

/** Runs a collector call with a deadline (a hung source must not hold the job past its lock). */
async function withTimeout<T>(run: (signal: AbortSignal) => Promise<T>, ms: number, what: string): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      run(controller.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new CollectorError(`${what} did not answer within ${ms} ms`));
        }, ms);
        timer.unref();
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The check engine. A check moves not_started -> in_progress (-> delayed) -> completed | error:
 *
 * - `checks.start` (queued by the create statement) plans the databases the check's type, country
 *   and inputs allow (one row each; the others are listed as `skipped` with the inputs they lack).
 *   Fast path: it first asks, concurrently, in-process and outside any transaction (same per-call
 *   deadline as a collect job), every synchronous database without credentials or first-ask delay
 *   whose declared answer time (Collector.answerLatencyMs) is at most CHECKS_INLINE_COLLECT_MAX_MS.
 *   Then one transaction starts the check if it is still not_started (else a re-run or another
 *   worker did: stop; asking again is allowed, as for a re-run collect job): the database rows
 *   with those outcomes applied, their collector_runs, the settled check (finished, with its
 *   event, when all are final), one `checks.collect` job per database not answered inline (slow,
 *   webhook or credentialed ones, `pending` with a poll time, failures when settings have
 *   `retries`, after the collect backoff), a `checks.timer` job while something is open, and the
 *   start job's own completion. Not a transactional job: it calls out before its transaction.
 * - `checks.collect` asks one database. An answer completes it; `pending` re-asks at the time the
 *   source gives (or waits for its webhook); a failure marks it `error`, or, when the tenant's
 *   settings have `retries`, is retried with backoff until max_duration.
 * - `checks.timer` marks databases still unanswered after their expected latency `delayed` (and the
 *   check `delayed`), and at max_duration marks the rest `expired`.
 * - After every change the check's scores, statuses and summary are recomputed on the row; when
 *   every database is final the check finishes: `completed` if at least one database answered,
 *   `error` if none did, with its `checks.check.finished` event in the same transaction.
 *
 * Every change of a check happens under a row lock on the check, so concurrent answers, the timer
 * and webhook calls serialize and a check finishes (and publishes) exactly once, also when a worker
 * dies mid-check and its jobs are taken over. All times come from the injected Clock.
 */
@Injectable()
export class CheckEngineService implements OnModuleInit {
  private readonly logger = new Logger('check-engine');
  /** Start statements of concurrent start jobs, grouped (see startMany). */
  private readonly starts: GroupCommit<StartItem, boolean>;
  private readonly defaults = new Map<string, Partial<Record<DataSet, number>>>();
  private readonly finishedExtensions: {
    extend: CheckFinishedExtension;
    appliesTo?: (check: CheckEntity) => boolean;
  }[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueueService,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
    private readonly config: ChecksConfig,
    private readonly registry: CollectorRegistry,
    private readonly credentials: CredentialsService,
  ) {
    // Two groups in flight: while one commits, the start jobs finishing meanwhile form the next.
    this.starts = new GroupCommit((items) => this.startMany(items), { maxBatch: 64, maxInFlight: 2 });
  }

  onModuleInit(): void {
    if (!this.config.CHECKS_WORKER_ENABLED) return;
    const lockMs = this.config.CHECKS_WORKER_LOCK_MS;
    // Not transactional: it may ask databases (outside any transaction), then starts the check in
    // one transaction of its own; a re-run finds the check started and stops.
    this.jobs.register<StartJob>(START_QUEUE, (job) => this.start(job), {
      concurrency: this.config.CHECKS_START_CONCURRENCY,
      lockMs,
    });
    this.jobs.register<CollectJob>(COLLECT_QUEUE, (job) => this.collect(job), {
      concurrency: this.config.CHECKS_WORKER_CONCURRENCY,
      lockMs,
      backoffMs: collectBackoffMs,
    });
    this.jobs.register<TimerJob>(TIMER_QUEUE, (job, m) => this.timer(job, m), {
      transactional: true,
      concurrency: 2,
      lockMs,
    });
  }

  /**
   * Registers a CheckFinishedExtension (called once per finishing check, in its transaction).
   * `appliesTo` tells which checks it may extend (default: all): the start job finishes the others
   * in a single statement, without calling out to extensions.
   */
  extendFinished(extension: CheckFinishedExtension, appliesTo?: (check: CheckEntity) => boolean): void {
    this.finishedExtensions.push({ extend: extension, appliesTo });
  }

  /** Weights a check scores with: its custom type's (copied at creation) or its built-in type's defaults in its country. */
  weightsOf(check: Pick<CheckEntity, 'type' | 'country' | 'weights'>): Partial<Record<DataSet, number>> {
    if (check.weights) return check.weights;
    if (!(BUILT_IN_CHECK_TYPES as readonly string[]).includes(check.type)) return {};
    const key = `${check.type}/${check.country}`;
    let w = this.defaults.get(key);
    if (!w)
      this.defaults.set(
        key,
        (w = defaultWeights(check.type as BuiltInCheckType, this.registry.candidates(check.country, check.type))),
      );
    return w;
  }

  settingsOf(check: Pick<CheckEntity, 'country' | 'settings'>): EffectiveSettings {
    const retries = check.settings?.retries ?? false;
    return {
      retries,
      namesMatching: check.settings?.names_matching_type ?? 'soft',
      maxDurationMinutes: check.settings?.max_duration_minutes ?? defaultMaxDurationMinutes(check.country, retries),
    };
  }

  // ------------------------------------------------------------------------------------ start

  private async start(job: Job<StartJob>): Promise<void | typeof JOB_COMPLETED> {
    const tenantId = job.tenantId;
    if (!tenantId) return;
    // The check and the databases its tenant stored credentials for, in one read.
    const [found] = await preparedQuery<Record<string, unknown> & { stored_credentials: string[] }>(
      this.dataSource,
      'checks.engine.load',
      `SELECT c.*, ARRAY(SELECT database_id FROM collector_credentials WHERE tenant_id = c.tenant_id) AS stored_credentials FROM checks c WHERE c.id = $1 AND c.tenant_id = $2`,
      [job.payload.check_id, tenantId],
    );
    if (!found || found.status !== 'not_started') return;
    const check = mapRow(this.dataSource.getRepository(CheckEntity), found);
    const withCredentials = new Set(found.stored_credentials);
    const now = this.clock.now();
    const settings = this.settingsOf(check);
    const deadlineAt = new Date(check.createdAt.getTime() + settings.maxDurationMinutes * 60_000);
    const plan = this.registry.plan({
      country: check.country,
      type: check.type,
      region: check.region,
      inputs: effectiveInputs(check.inputs, check.region),
      weights: this.weightsOf(check),
    });
    const rows = plan.map(({ collector, search, invalidInputs }) => {
      // A database that needs credentials the tenant has not stored fails at once, saying how to add them.
      const missing = !!search && collector.needsCredentials && !withCredentials.has(collector.databaseId);
      return this.dataSource.manager.create(CheckDatabaseEntity, {
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

    // Fast path: ask the quick synchronous databases now, concurrently, outside any transaction.
    const inline =
      now < deadlineAt ? rows.filter((r) => r.status === 'not_started' && this.asksInline(check, r.databaseId)) : [];
    const asked = await Promise.all(
      inline.map(async (row) => {
        row.attempts = 1;
        return { row, result: await this.ask(this.registry.get(row.databaseId)!, check, row, now, 1, undefined) };
      }),
    );
    const done = inline.length ? this.clock.now() : now;
    const runs: { row: CheckDatabaseEntity; outcome: RunOutcome }[] = [];
    const collectJobs: { payload: CollectJob; options: EnqueueOptions }[] = [];
    const collectJob = (row: CheckDatabaseEntity, runAt: Date, key: string) =>
      collectJobs.push({
        payload: { check_id: check.id, database_row_id: row.id },
        options: {
          tenantId: check.tenantId,
          runAt,
          maxAttempts: this.collectAttempts(settings),
          dedupeKey: `collect:${row.id}:${key}`,
        },
      });
    const askedIds = new Set(inline.map((r) => r.id));
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
    for (const row of rows.filter((r) => r.status === 'not_started' && !askedIds.has(r.id))) {
      const delay =
        this.registry
          .get(row.databaseId)
          ?.firstAskDelayMs?.({ country: check.country, type: check.type, region: check.region }) ?? 0;
      collectJob(row, new Date(now.getTime() + Math.max(0, delay)), 'start');
    }

    // One transaction starts the check with what is known: only if it is still not_started (a
    // re-run after a crash, or a second worker, finds it started and stops here).
    check.startedAt = now;
    check.deadlineAt = deadlineAt;
    const finished = this.evaluate(check, rows, done);
    if (!finished || !this.extended(check)) {
      return (await this.startInOneStatement(job, check, rows, runs, collectJobs, finished, done))
        ? JOB_COMPLETED
        : undefined;
    }
    return this.dataSource.transaction(async (m) => {
      const { affected } = await m.update(
        CheckEntity,
        { id: check.id, tenantId: check.tenantId, status: 'not_started' },
        { ...this.settledFields(check, finished), startedAt: check.startedAt, deadlineAt: check.deadlineAt },
      );
      if (!affected) return;
      if (rows.length) await m.insert(CheckDatabaseEntity, rows);
      await this.recordRuns(m, check.id, runs, done);
      await this.jobs.enqueueMany<CollectJob>(m, COLLECT_QUEUE, collectJobs);
      if (finished) await this.publishFinished(m, check);
      else await this.scheduleTimer(m, check, rows, done);
      // The start job completes with the check's start (one commit, not two).
      await this.jobs.complete(m, job);
      return JOB_COMPLETED;
    });
  }

  /**
   * The start transaction of one check, grouped with those of the start jobs running meanwhile
   * into one statement and one commit (GroupCommit, see startMany): the check, if still
   * not_started, with its databases, runs, finished event, collector and timer jobs, and the start
   * job's completion (as JobQueueService.complete does). False when the check had started.
   */
  private async startInOneStatement(
    job: Job<StartJob>,
    check: CheckEntity,
    rows: CheckDatabaseEntity[],
    runs: { row: CheckDatabaseEntity; outcome: RunOutcome }[],
    collectJobs: { payload: CollectJob; options: EnqueueOptions }[],
    finished: boolean,
    now: Date,
  ): Promise<boolean> {
    const timer = finished ? null : this.timerJob(check, rows, now);
    const started = await this.starts.submit({
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
      job_id: job.id,
      job_attempt: job.attempt,
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
      runs: runs.map((run) => runRow(run, now)),
      events: finished ? [this.outbox.row(this.finishedEvent(check, {}))] : [],
      jobs: [
        ...collectJobs.map((j) => ({
          queue: COLLECT_QUEUE,
          payload: j.payload,
          max_attempts: j.options.maxAttempts ?? 5,
          run_at: j.options.runAt ?? now,
          dedupe_key: j.options.dedupeKey ?? null,
        })),
        ...(timer
          ? [
              {
                queue: TIMER_QUEUE,
                payload: timer.payload,
                max_attempts: 5,
                run_at: timer.runAt,
                dedupe_key: timer.dedupeKey,
              },
            ]
          : []),
      ],
    });
    if (started && finished)
      this.logger.log({
        msg: 'check finished',
        check_id: check.id,
        tenant_id: check.tenantId,
        status: check.status,
        score: check.score,
      });
    return started;
  }

  /**
   * Starts several checks in one statement (one round trip, one commit and WAL flush for all):
   * each only if still not_started. Returns, per item in order, whether it started.
   */
  private async startMany(items: StartItem[]): Promise<boolean[]> {
    // Unnamed: its join with checks is planned at each call, for the table's size now (see rawQuery).
    // The id arrays let the planner find the checks and jobs by primary key: it estimates a
    // recordset at 100 rows and would otherwise join it with a scan of the whole table.
    const rows = await rawQuery<{ i: number; started: boolean }>(this.dataSource, START_MANY_SQL, [
      JSON.stringify(items.map((item, i) => ({ ...item, i }))),
      items.map((item) => item.id),
      items.map((item) => item.job_id),
    ]);
    // One autocommit statement, outside a TypeORM transaction: wake the relay and the job queue.
    this.outbox.committed();
    return rows.map((r) => r.started);
  }

  /** Whether the start job asks this database itself (see CHECKS_INLINE_COLLECT_MAX_MS). */
  private asksInline(check: CheckEntity, databaseId: string): boolean {
    const max = this.config.CHECKS_INLINE_COLLECT_MAX_MS;
    const collector = this.registry.get(databaseId);
    if (!max || !collector || collector.webhookType || collector.needsCredentials || !collector.answerLatencyMs)
      return false;
    const c = { country: check.country, type: check.type, region: check.region };
    return (collector.firstAskDelayMs?.(c) ?? 0) <= 0 && collector.answerLatencyMs(c) <= max;
  }

  private collectAttempts(settings: EffectiveSettings) {
    return settings.retries ? 10_000 : 5;
  }

  // ------------------------------------------------------------------------------------ collect

  private async collect(job: Job<CollectJob>): Promise<void | typeof JOB_COMPLETED> {
    const tenantId = job.tenantId!;
    const manager = this.dataSource.manager;
    const [check, row] = await Promise.all([
      findOneRaw(manager.getRepository(CheckEntity), { id: job.payload.check_id, tenantId }),
      findOneRaw(manager.getRepository(CheckDatabaseEntity), { id: job.payload.database_row_id, tenantId }),
    ]);
    if (!check || !row || isFinal(row) || FINISHED.includes(check.status)) return;
    const now = this.clock.now();
    if (check.deadlineAt && now >= check.deadlineAt) return; // the timer expires it
    const settings = this.settingsOf(check);
    const collector = this.registry.get(row.databaseId);
    if (!collector) {
      return this.recorded(
        this.record(
          check.id,
          tenantId,
          row.id,
          { kind: 'failure', message: `database ${row.databaseId} is not available in this installation` },
          { job },
        ),
      );
    }
    let credentials: CollectorCredentials | undefined;
    if (collector.needsCredentials) {
      credentials = await this.credentials.forCollector(tenantId, row.databaseId);
      if (!credentials)
        return this.recorded(
          this.record(
            check.id,
            tenantId,
            row.id,
            { kind: 'failure', message: missingCredentials(row.databaseId) },
            { countRun: false, job },
          ),
        );
    }
    const [{ attempts }] = await preparedQuery<{ attempts: number }>(
      this.dataSource,
      'checks.engine.attempt',
      `UPDATE check_databases SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts`,
      [row.id],
    );
    const result = await this.ask(collector, check, row, now, attempts, credentials);
    if (result.kind === 'failed') {
      if (result.permanent || !settings.retries)
        return this.recorded(
          this.record(check.id, tenantId, row.id, { kind: 'failure', message: result.message }, { job }),
        );
      await this.recordRuns(manager, check.id, [{ row, outcome: 'error' }], now);
      throw result.error; // retried with backoff; the timer expires the database at max_duration
    }
    const outcome = result.outcome;
    if (outcome.kind === 'pending') {
      if (outcome.pollAt) {
        await this.jobs.enqueue<CollectJob>(null, COLLECT_QUEUE, job.payload, {
          tenantId,
          runAt: outcome.pollAt,
          maxAttempts: this.collectAttempts(settings),
          dedupeKey: `collect:${row.id}:${outcome.pollAt.getTime()}`,
        });
      }
      return;
    }
    return this.recorded(this.record(check.id, tenantId, row.id, outcome, { job }));
  }

  /** A collect job's result: completed with the record (JOB_COMPLETED), else by the queue. */
  private async recorded(recording: Promise<boolean>): Promise<void | typeof JOB_COMPLETED> {
    return (await recording) ? JOB_COMPLETED : undefined;
  }

  /** One query of a database, with the call's deadline; failures are returned, not thrown. */
  private async ask(
    collector: Collector,
    check: CheckEntity,
    row: CheckDatabaseEntity,
    now: Date,
    attempt: number,
    credentials: CollectorCredentials | undefined,
  ): Promise<AskResult> {
    const ctx = (signal: AbortSignal): CollectorContext => ({
      checkId: check.id,
      tenantId: check.tenantId,
      country: check.country,
      type: check.type,
      inputs: effectiveInputs(check.inputs, check.region),
      search: row.searchBy ?? 'id',
      reference: row.reference,
      requestedAt: row.requestedAt ?? now,
      now,
      attempt,
      credentials,
      signal,
    });
    try {
      return {
        kind: 'outcome',
        outcome: await withTimeout(
          (signal) => collector.collect(ctx(signal)),
          Math.max(1_000, Math.floor(this.config.CHECKS_WORKER_LOCK_MS / 2)),
          collector.databaseName,
        ),
      };
    } catch (err) {
      if (!(err instanceof CollectorError))
        this.logger.warn({
          err,
          database_id: row.databaseId,
          check_id: check.id,
          msg: 'collector failed unexpectedly',
        });
      return {
        kind: 'failed',
        error: err,
        message: err instanceof Error ? err.message : String(err),
        permanent: err instanceof CollectorError ? err.permanent : false,
      };
    }
  }

  /**
   * Records a database's answer or failure (from a collector job or a webhook) and settles the check.
   * Idempotent: a database already final, or a finished check, is left alone. With `job` (a collect
   * job), the job completes in the same transaction.
   *
   * Other databases of the same check wait on the check's row lock, so how long it is held bounds
   * how fast one check's answers are recorded. It is held for three round trips: BEGIN with the
   * locked read of the check and the read of its databases (one simple query), one statement with
   * every write (the database, the settled check, its run, the finished event, the job's
   * completion), and COMMIT. A finishing check with a CheckFinishedExtension that applies is
   * recorded again in a TypeORM transaction, where the extension runs.
   */
  async record(
    checkId: string,
    tenantId: string,
    rowId: string,
    outcome: DatabaseOutcome,
    options: RecordOptions = {},
  ): Promise<boolean> {
    const result = await withPooledClient(this.dataSource, (client) =>
      this.recordPipelined(client, checkId, tenantId, rowId, outcome, options),
    );
    if (result === 'extended')
      return this.dataSource.transaction((m) => this.recordIn(m, checkId, tenantId, rowId, outcome, options));
    return result === 'recorded';
  }

  private async recordPipelined(
    client: PoolClient,
    checkId: string,
    tenantId: string,
    rowId: string,
    outcome: DatabaseOutcome,
    options: RecordOptions,
  ): Promise<'recorded' | 'ignored' | 'extended'> {
    // One round trip: three statements in one simple query (each statement its own snapshot).
    const literals = [client.escapeLiteral(checkId), client.escapeLiteral(tenantId)];
    const bind = (sql: string) => sql.replace(/\$([12])\b/g, (_, n: string) => literals[Number(n) - 1]);
    const [, locked, databases] = (await client.query(
      `BEGIN; ${bind(LOCK_CHECK_SQL)}; ${bind(CHECK_DATABASES_SQL)}`,
    )) as unknown as QueryResult[];
    const check = locked.rows[0] ? mapRow(this.dataSource.getRepository(CheckEntity), locked.rows[0]) : null;
    const rows = databases.rows.map((r) => mapRow(this.dataSource.getRepository(CheckDatabaseEntity), r));
    const now = this.clock.now();
    const applied = check ? this.applyOutcome(check, rows, rowId, outcome, options, now) : null;
    if (!check || !applied || (applied.finished && this.extended(check))) {
      await client.query('ROLLBACK');
      return applied ? 'extended' : 'ignored';
    }
    const write = this.recordStatement(check, applied, now, options.job);
    await client.query({ name: 'checks.engine.record', text: write.text, values: write.values });
    await client.query('COMMIT');
    if (applied.finished) {
      this.outbox.committed();
      this.logger.log({
        msg: 'check finished',
        check_id: check.id,
        tenant_id: check.tenantId,
        status: check.status,
        score: check.score,
      });
    }
    return 'recorded';
  }

  /** record() in a TypeORM transaction: for a finishing check with extensions (they get its EntityManager). */
  private async recordIn(
    m: EntityManager,
    checkId: string,
    tenantId: string,
    rowId: string,
    outcome: DatabaseOutcome,
    options: RecordOptions,
  ): Promise<boolean> {
    const locked = await this.lockWithDatabases(m, checkId, tenantId);
    if (!locked) return false;
    const { check, rows } = locked;
    const now = this.clock.now();
    const applied = this.applyOutcome(check, rows, rowId, outcome, options, now);
    if (!applied) return false;
    if (applied.finished && this.extended(check)) {
      const { row } = applied;
      await m.update(
        CheckDatabaseEntity,
        { id: row.id },
        { status: row.status, answer: row.answer as never, message: row.message, answeredAt: now, updatedAt: now },
      );
      await this.recordRuns(m, check.id, applied.runs, now);
      await m.update(CheckEntity, { id: check.id, tenantId: check.tenantId }, this.settledFields(check, true));
      await this.publishFinished(m, check);
      if (options.job) await this.jobs.complete(m, options.job);
    } else {
      const write = this.recordStatement(check, applied, now, options.job);
      await preparedQuery(this.dataSource, 'checks.engine.record', write.text, write.values, m);
    }
    return true;
  }

  /**
   * Applies a database's outcome to its row (in memory) and re-evaluates the check; null when
   * there is nothing to record (the check finished, or the database is unknown or already final).
   */
  private applyOutcome(
    check: CheckEntity,
    rows: CheckDatabaseEntity[],
    rowId: string,
    outcome: DatabaseOutcome,
    options: RecordOptions,
    now: Date,
  ): Applied | null {
    if (FINISHED.includes(check.status)) return null;
    const row = rows.find((r) => r.id === rowId);
    if (!row || isFinal(row)) return null;
    Object.assign(row, {
      status: outcome.kind === 'answer' ? 'completed' : 'error',
      answer: outcome.kind === 'answer' ? outcome : null,
      message: outcome.kind === 'failure' ? outcome.message.slice(0, 500) : null,
      answeredAt: now,
      updatedAt: now,
    });
    // A tenant's missing credentials say nothing about the database's health.
    const runs =
      options.countRun === false
        ? []
        : [{ row, outcome: (outcome.kind === 'answer' ? 'success' : 'error') as RunOutcome }];
    return { row, runs, finished: this.evaluate(check, rows, now) };
  }

  /** Whether a CheckFinishedExtension applies to this check. */
  private extended(check: CheckEntity): boolean {
    return this.finishedExtensions.some((e) => !e.appliesTo || e.appliesTo(check));
  }

  /** The one statement that writes a recorded answer (see record()). */
  private recordStatement(
    check: CheckEntity,
    { row, runs, finished }: Applied,
    now: Date,
    job?: Job,
  ): { text: string; values: unknown[] } {
    return {
      text: RECORD_SQL,
      values: [
        row.id,
        check.id,
        row.status,
        row.answer === null ? null : JSON.stringify(row.answer),
        row.message,
        now,
        check.status,
        check.score,
        check.idScore,
        check.homonymScore,
        JSON.stringify(check.result),
        finished ? check.finishedAt : null,
        JSON.stringify(runs.map((run) => runRow(run, now))),
        JSON.stringify(finished ? [this.outbox.row(this.finishedEvent(check, {}))] : []),
        job?.id ?? null,
        job?.attempt ?? null,
      ],
    };
  }

  /** A webhook answered the query `reference`. Unknown references are refused; late or repeated answers ignored. */
  async recordWebhook(
    reference: string,
    outcome: DatabaseOutcome,
  ): Promise<'recorded' | 'ignored' | 'unknown' | 'retrying'> {
    const row = await this.dataSource.manager.findOneBy(CheckDatabaseEntity, { reference });
    if (!row) return 'unknown';
    if (isFinal(row)) return 'ignored';
    const check = await this.dataSource.manager.findOneBy(CheckEntity, { id: row.checkId, tenantId: row.tenantId });
    if (!check) return 'ignored';
    const now = this.clock.now();
    if (outcome.kind === 'failure' && this.settingsOf(check).retries && (!check.deadlineAt || now < check.deadlineAt)) {
      await this.recordRuns(this.dataSource.manager, check.id, [{ row, outcome: 'error' }], now);
      const retryAt = new Date(now.getTime() + 60_000);
      await this.jobs.enqueue<CollectJob>(
        null,
        COLLECT_QUEUE,
        { check_id: check.id, database_row_id: row.id },
        {
          tenantId: row.tenantId,
          runAt: retryAt,
          maxAttempts: 10_000,
          dedupeKey: `collect:${row.id}:${retryAt.getTime()}`,
        },
      );
      return 'retrying';
    }
    return (await this.record(row.checkId, row.tenantId, row.id, outcome)) ? 'recorded' : 'ignored';
  }

  // ------------------------------------------------------------------------------------ timer

  private async timer(job: Job<TimerJob>, m: EntityManager): Promise<void> {
    const locked = job.tenantId ? await this.lockWithDatabases(m, job.payload.check_id, job.tenantId) : null;
    if (!locked || FINISHED.includes(locked.check.status) || locked.check.status === 'not_started') return;
    const { check, rows } = locked;
    const now = this.clock.now();
    const expired = !!check.deadlineAt && now >= check.deadlineAt;
    const timedOut: { row: CheckDatabaseEntity; outcome: RunOutcome }[] = [];
    const changed: CheckDatabaseEntity[] = [];
    for (const row of rows) {
      if (isFinal(row)) continue;
      let status = row.status;
      let message = row.message;
      if (expired) {
        status = 'expired';
        message = `no answer within max_duration (${this.settingsOf(check).maxDurationMinutes} minutes)`;
        timedOut.push({ row, outcome: 'timeout' });
      } else if (row.status === 'not_started' && row.expectedAt && row.expectedAt <= now) status = 'delayed';
      if (status === row.status) continue;
      Object.assign(row, { status, message, updatedAt: now });
      changed.push(row);
    }
    // One statement for every changed database (the check's lock is held meanwhile).
    if (changed.length) {
      await m.query(
        `UPDATE check_databases d SET status = v.status, message = v.message, updated_at = $2
           FROM jsonb_to_recordset($3::jsonb) AS v(id text, status text, message text) WHERE d.id = v.id AND d.check_id = $1`,
        [check.id, now, JSON.stringify(changed.map((r) => ({ id: r.id, status: r.status, message: r.message })))],
      );
    }
    await this.recordRuns(m, check.id, timedOut, now);
    if (!(await this.settle(m, check, rows, now))) await this.scheduleTimer(m, check, rows, now);
  }

  /** The next moment something is due: a database's expected answer time or the check's deadline. */
  private async scheduleTimer(
    m: EntityManager,
    check: CheckEntity,
    rows: CheckDatabaseEntity[],
    now: Date,
  ): Promise<void> {
    const timer = this.timerJob(check, rows, now);
    if (timer)
      await this.jobs.enqueue<TimerJob>(m, TIMER_QUEUE, timer.payload, {
        tenantId: check.tenantId,
        runAt: timer.runAt,
        dedupeKey: timer.dedupeKey,
      });
  }

  private timerJob(
    check: CheckEntity,
    rows: CheckDatabaseEntity[],
    now: Date,
  ): { payload: TimerJob; runAt: Date; dedupeKey: string } | null {
    const due = [
      ...rows
        .filter((r) => r.status === 'not_started' && r.expectedAt && r.expectedAt > now)
        .map((r) => r.expectedAt!.getTime()),
      ...(check.deadlineAt ? [Math.max(check.deadlineAt.getTime(), now.getTime())] : []),
    ];
    if (!due.length) return null;
    const at = Math.min(...due);
    return { payload: { check_id: check.id }, runAt: new Date(at), dedupeKey: `timer:${check.id}:${at}` };
  }

  // ------------------------------------------------------------------------------------ settle

  /**
   * Recomputes the check from its databases and stores it; finishes it (status, finished_at and the
   * checks.check.finished event, in the caller's transaction) when every database is final.
   * Returns true when the check finished.
   */
  private async settle(m: EntityManager, check: CheckEntity, rows: CheckDatabaseEntity[], now: Date): Promise<boolean> {
    const finished = this.evaluate(check, rows, now);
    await m.update(CheckEntity, { id: check.id, tenantId: check.tenantId }, this.settledFields(check, finished));
    if (finished) await this.publishFinished(m, check);
    return finished;
  }

  /** Computes the check's status, scores, statuses and summary from its databases (in memory). Returns true when it finished. */
  private evaluate(check: CheckEntity, rows: CheckDatabaseEntity[], now: Date): boolean {
    const settings = this.settingsOf(check);
    const weights = this.weightsOf(check);
    const databases: ScoredDatabase[] = rows.map((r) => ({
      databaseId: r.databaseId,
      databaseName: r.databaseName,
      dataSets: r.dataSets,
      status: r.status,
      searchBy: r.searchBy,
      answer: r.answer,
      invalidInputs: r.invalidInputs,
      message: r.message,
    }));
    const input = { weights, databases, namesMatching: settings.namesMatching, searchedName: searchedName(check) };
    const scored = scoreCheck(input);
    const summaries = summarize(check.type, input);
    const pending = rows.filter((r) => !isFinal(r));
    let status: CheckStatus;
    if (!pending.length) status = rows.some((r) => r.status === 'completed') ? 'completed' : 'error';
    else status = pending.some((r) => r.status === 'delayed') ? 'delayed' : 'in_progress';
    const finished = FINISHED.includes(status);
    Object.assign(check, {
      status,
      score: scored.score,
      idScore: scored.id_score,
      homonymScore: scored.homonym_score,
      // Only public result fields, none of them null: GET /v1/checks/{id} copies it as it is (RESULT_JSON_SQL).
      result: {
        scores: scored.scores,
        statuses: databaseStatuses(databases),
        ...(scored.homonym_probability !== null ? { homonym_probability: scored.homonym_probability } : {}),
        ...summaries,
      },
      updatedAt: now,
      ...(finished ? { finishedAt: now } : {}),
    });
    return finished;
  }

  /** The columns evaluate() computes, for an UPDATE of the check. */
  private settledFields(check: CheckEntity, finished: boolean) {
    return {
      status: check.status,
      score: check.score,
      idScore: check.idScore,
      homonymScore: check.homonymScore,
      result: check.result as never,
      updatedAt: check.updatedAt,
      ...(finished ? { finishedAt: check.finishedAt } : {}),
    };
  }

  /** The checks.check.finished event of a finishing check, in its transaction (with the extensions' fields). */
  private async publishFinished(m: EntityManager, check: CheckEntity): Promise<void> {
    const extra: Partial<CheckFinishedPayload> = {};
    for (const { extend, appliesTo } of this.finishedExtensions)
      if (!appliesTo || appliesTo(check)) Object.assign(extra, await extend(m, check));
    await this.outbox.add(m, this.finishedEvent(check, extra));
    this.logger.log({
      msg: 'check finished',
      check_id: check.id,
      tenant_id: check.tenantId,
      status: check.status,
      score: check.score,
    });
  }

  private finishedEvent(check: CheckEntity, extra: Partial<CheckFinishedPayload>): OutgoingEvent<CheckFinishedPayload> {
    return {
      topic: TOPICS.checkFinished,
      type: CHECK_EVENT_TYPES.finished,
      tenantId: check.tenantId,
      aggregateId: check.id,
      payload: { ...extra, check: checkRecord(check) },
    };
  }

  // ------------------------------------------------------------------------------------ helpers

  /** The check, locked, then its databases (in their order), in the caller's transaction. */
  private async lockWithDatabases(
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

  /** Runs of databases for the health dashboard (success, error or timeout, with their latency), in one statement. */
  private async recordRuns(
    m: EntityManager,
    checkId: string,
    runs: { row: CheckDatabaseEntity; outcome: RunOutcome }[],
    now: Date,
  ): Promise<void> {
    if (!runs.length) return;
    await m.query(
      `INSERT INTO collector_runs (database_id, country, tenant_id, check_id, outcome, latency_ms, finished_at)
       SELECT r.database_id, r.country, r.tenant_id, $1, r.outcome, r.latency_ms, $2
         FROM jsonb_to_recordset($3::jsonb) AS r(database_id text, country text, tenant_id text, outcome text, latency_ms bigint)`,
      [checkId, now, JSON.stringify(runs.map((run) => runRow(run, now)))],
    );
  }
}

/** A collector run as the statements insert it (jsonb_to_recordset): its latency is the database's answer time so far. */
const runRow = ({ row, outcome }: { row: CheckDatabaseEntity; outcome: RunOutcome }, now: Date) => ({
  database_id: row.databaseId,
  country: row.country,
  tenant_id: row.tenantId,
  outcome,
  latency_ms: Math.max(0, now.getTime() - (row.requestedAt ?? now).getTime()),
});

const missingCredentials = (databaseId: string) =>
  `no credentials stored for ${databaseId}: add them with POST /v1/config/credentials/${databaseId}`;

/** The name scoring compares name-only records with: the person's full name, else the company name. */
export function searchedName(check: Pick<CheckEntity, 'type' | 'inputs'>): string | null {
  const person = fullName(check.inputs.first_name, check.inputs.last_name);
  if (check.type === 'company') return check.inputs.company_name ?? null;
  return person || check.inputs.company_name || null;
}
