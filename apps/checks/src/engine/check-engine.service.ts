import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { BUILT_IN_CHECK_TYPES, BuiltInCheckType, CHECK_EVENT_TYPES, CheckFinishedPayload, CheckStatus, DataSet, NamesMatchingType, TOPICS } from '@kyc/contracts';
import { Clock, Job, JobQueueService, OutboxService } from '@kyc/platform';
import { effectiveInputs } from '../checks/check-inputs';
import { CheckEntity } from '../checks/check.entity';
import { checkRecord } from '../checks/check.presenter';
import { CollectorAnswer, CollectorContext, CollectorCredentials, CollectorError, CollectorOutcome } from '../collectors/collector';
import { CollectorRegistry } from '../collectors/collector.registry';
import { ChecksConfig } from '../config/checks.config';
import { CredentialsService } from '../credentials/credentials.service';
import { CheckDatabaseEntity } from './check-database.entity';
import { defaultMaxDurationMinutes, defaultWeights } from './datasets';
import { fullName } from './names';
import { databaseStatuses, FINAL_DATABASE_STATUSES, ScoredDatabase, scoreCheck, summarize } from './scoring';

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
export type CheckFinishedExtension = (m: EntityManager, check: CheckEntity) => Promise<Partial<Omit<CheckFinishedPayload, 'check'>>>;

/** A database's outcome as the engine records it. */
export type DatabaseOutcome = CollectorAnswer | { kind: 'failure'; message: string };

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
 *   and inputs allow (one row each; the others are listed as `skipped` with the inputs they lack),
 *   queues one `checks.collect` job per database, and a `checks.timer` job.
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
  private readonly defaults = new Map<string, Partial<Record<DataSet, number>>>();
  private readonly finishedExtensions: CheckFinishedExtension[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueueService,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
    private readonly config: ChecksConfig,
    private readonly registry: CollectorRegistry,
    private readonly credentials: CredentialsService,
  ) {}

  onModuleInit(): void {
    if (!this.config.CHECKS_WORKER_ENABLED) return;
    const lockMs = this.config.CHECKS_WORKER_LOCK_MS;
    this.jobs.register<StartJob>(START_QUEUE, (job, m) => this.start(job, m), { transactional: true, concurrency: 4, lockMs });
    this.jobs.register<CollectJob>(COLLECT_QUEUE, (job) => this.collect(job), {
      concurrency: this.config.CHECKS_WORKER_CONCURRENCY,
      lockMs,
      backoffMs: (n) => Math.min(10 * 60_000, 15_000 * 2 ** (n - 1)),
    });
    this.jobs.register<TimerJob>(TIMER_QUEUE, (job, m) => this.timer(job, m), { transactional: true, concurrency: 2, lockMs });
  }

  /** Registers a CheckFinishedExtension (called once per finishing check, in its transaction). */
  extendFinished(extension: CheckFinishedExtension): void {
    this.finishedExtensions.push(extension);
  }

  /** Weights a check scores with: its custom type's (copied at creation) or its built-in type's defaults in its country. */
  weightsOf(check: Pick<CheckEntity, 'type' | 'country' | 'weights'>): Partial<Record<DataSet, number>> {
    if (check.weights) return check.weights;
    if (!(BUILT_IN_CHECK_TYPES as readonly string[]).includes(check.type)) return {};
    const key = `${check.type}/${check.country}`;
    let w = this.defaults.get(key);
    if (!w) this.defaults.set(key, (w = defaultWeights(check.type as BuiltInCheckType, this.registry.candidates(check.country, check.type))));
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

  private async start(job: Job<StartJob>, m: EntityManager): Promise<void> {
    const check = await this.lockCheck(m, job.payload.check_id, job.tenantId);
    if (!check || check.status !== 'not_started') return;
    const now = this.clock.now();
    const settings = this.settingsOf(check);
    const plan = this.registry.plan({ country: check.country, type: check.type, region: check.region, inputs: effectiveInputs(check.inputs, check.region), weights: this.weightsOf(check) });
    const withCredentials = await this.storedCredentials(m, check.tenantId, plan.filter((p) => p.search && p.collector.needsCredentials).map((p) => p.collector.databaseId));
    const rows = plan.map(({ collector, search, invalidInputs }) => {
      // A database that needs credentials the tenant has not stored fails at once, saying how to add them.
      const missing = !!search && collector.needsCredentials && !withCredentials.has(collector.databaseId);
      return m.create(CheckDatabaseEntity, {
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
    if (rows.length) await m.insert(CheckDatabaseEntity, rows);
    check.startedAt = now;
    check.deadlineAt = new Date(check.createdAt.getTime() + settings.maxDurationMinutes * 60_000);
    check.status = 'in_progress';
    await m.update(CheckEntity, { id: check.id, tenantId: check.tenantId }, { startedAt: check.startedAt, deadlineAt: check.deadlineAt, status: check.status });
    for (const row of rows.filter((r) => r.status === 'not_started')) {
      const delay = this.registry.get(row.databaseId)?.firstAskDelayMs?.({ country: check.country, type: check.type, region: check.region }) ?? 0;
      await this.jobs.enqueue<CollectJob>(m, COLLECT_QUEUE, { check_id: check.id, database_row_id: row.id }, {
        tenantId: check.tenantId,
        runAt: new Date(now.getTime() + Math.max(0, delay)),
        maxAttempts: this.collectAttempts(settings),
        dedupeKey: `collect:${row.id}:start`,
      });
    }
    if (!(await this.settle(m, check, rows, now))) await this.scheduleTimer(m, check, rows, now);
  }

  private collectAttempts(settings: EffectiveSettings) {
    return settings.retries ? 10_000 : 5;
  }

  // ------------------------------------------------------------------------------------ collect

  private async collect(job: Job<CollectJob>): Promise<void> {
    const tenantId = job.tenantId!;
    const manager = this.dataSource.manager;
    const [check, row] = await Promise.all([
      manager.findOneBy(CheckEntity, { id: job.payload.check_id, tenantId }),
      manager.findOneBy(CheckDatabaseEntity, { id: job.payload.database_row_id, tenantId }),
    ]);
    if (!check || !row || isFinal(row) || FINISHED.includes(check.status)) return;
    const now = this.clock.now();
    if (check.deadlineAt && now >= check.deadlineAt) return; // the timer expires it
    const settings = this.settingsOf(check);
    const collector = this.registry.get(row.databaseId);
    if (!collector) {
      await this.record(check.id, tenantId, row.id, { kind: 'failure', message: `database ${row.databaseId} is not available in this installation` });
      return;
    }
    let credentials: CollectorCredentials | undefined;
    if (collector.needsCredentials) {
      credentials = await this.credentials.forCollector(tenantId, row.databaseId);
      if (!credentials) {
        await this.record(check.id, tenantId, row.id, { kind: 'failure', message: missingCredentials(row.databaseId) }, { countRun: false });
        return;
      }
    }
    const [{ attempts }] = await manager.query(`UPDATE check_databases SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts`, [row.id]);
    const ctx = (signal: AbortSignal): CollectorContext => ({
      checkId: check.id,
      tenantId,
      country: check.country,
      type: check.type,
      inputs: effectiveInputs(check.inputs, check.region),
      search: row.searchBy ?? 'id',
      reference: row.reference,
      requestedAt: row.requestedAt ?? now,
      now,
      attempt: attempts,
      credentials,
      signal,
    });
    let outcome: CollectorOutcome;
    try {
      outcome = await withTimeout((signal) => collector.collect(ctx(signal)), Math.max(1_000, Math.floor(this.config.CHECKS_WORKER_LOCK_MS / 2)), collector.databaseName);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const permanent = err instanceof CollectorError ? err.permanent : false;
      if (!(err instanceof CollectorError)) this.logger.warn({ err, database_id: row.databaseId, check_id: check.id, msg: 'collector failed unexpectedly' });
      if (permanent || !settings.retries) {
        await this.record(check.id, tenantId, row.id, { kind: 'failure', message });
        return;
      }
      await this.recordRun(manager, row, check.id, 'error', now);
      throw err; // retried with backoff; the timer expires the database at max_duration
    }
    if (outcome.kind === 'pending') {
      if (outcome.pollAt) {
        await this.jobs.enqueue<CollectJob>(null, COLLECT_QUEUE, job.payload, { tenantId, runAt: outcome.pollAt, maxAttempts: this.collectAttempts(settings), dedupeKey: `collect:${row.id}:${outcome.pollAt.getTime()}` });
      }
      return;
    }
    await this.record(check.id, tenantId, row.id, outcome);
  }

  /**
   * Records a database's answer or failure (from a collector job or a webhook) and settles the check.
   * Idempotent: a database already final, or a finished check, is left alone.
   */
  async record(checkId: string, tenantId: string, rowId: string, outcome: DatabaseOutcome, options: { countRun?: boolean } = {}): Promise<boolean> {
    return this.dataSource.transaction(async (m) => {
      const check = await this.lockCheck(m, checkId, tenantId);
      if (!check || FINISHED.includes(check.status)) return false;
      const rows = await this.rowsOf(m, check);
      const row = rows.find((r) => r.id === rowId);
      if (!row || isFinal(row)) return false;
      const now = this.clock.now();
      Object.assign(row, {
        status: outcome.kind === 'answer' ? 'completed' : 'error',
        answer: outcome.kind === 'answer' ? outcome : null,
        message: outcome.kind === 'failure' ? outcome.message.slice(0, 500) : null,
        answeredAt: now,
        updatedAt: now,
      });
      await m.update(CheckDatabaseEntity, { id: row.id }, { status: row.status, answer: row.answer as never, message: row.message, answeredAt: now, updatedAt: now });
      // A tenant's missing credentials say nothing about the database's health.
      if (options.countRun !== false) await this.recordRun(m, row, check.id, outcome.kind === 'answer' ? 'success' : 'error', now);
      await this.settle(m, check, rows, now);
      return true;
    });
  }

  /** A webhook answered the query `reference`. Unknown references are refused; late or repeated answers ignored. */
  async recordWebhook(reference: string, outcome: DatabaseOutcome): Promise<'recorded' | 'ignored' | 'unknown' | 'retrying'> {
    const row = await this.dataSource.manager.findOneBy(CheckDatabaseEntity, { reference });
    if (!row) return 'unknown';
    if (isFinal(row)) return 'ignored';
    const check = await this.dataSource.manager.findOneBy(CheckEntity, { id: row.checkId, tenantId: row.tenantId });
    if (!check) return 'ignored';
    const now = this.clock.now();
    if (outcome.kind === 'failure' && this.settingsOf(check).retries && (!check.deadlineAt || now < check.deadlineAt)) {
      await this.recordRun(this.dataSource.manager, row, check.id, 'error', now);
      const retryAt = new Date(now.getTime() + 60_000);
      await this.jobs.enqueue<CollectJob>(null, COLLECT_QUEUE, { check_id: check.id, database_row_id: row.id }, { tenantId: row.tenantId, runAt: retryAt, maxAttempts: 10_000, dedupeKey: `collect:${row.id}:${retryAt.getTime()}` });
      return 'retrying';
    }
    return (await this.record(row.checkId, row.tenantId, row.id, outcome)) ? 'recorded' : 'ignored';
  }

  // ------------------------------------------------------------------------------------ timer

  private async timer(job: Job<TimerJob>, m: EntityManager): Promise<void> {
    const check = await this.lockCheck(m, job.payload.check_id, job.tenantId);
    if (!check || FINISHED.includes(check.status) || check.status === 'not_started') return;
    const rows = await this.rowsOf(m, check);
    const now = this.clock.now();
    const expired = !!check.deadlineAt && now >= check.deadlineAt;
    for (const row of rows) {
      if (isFinal(row)) continue;
      let status = row.status;
      let message = row.message;
      if (expired) {
        status = 'expired';
        message = `no answer within max_duration (${this.settingsOf(check).maxDurationMinutes} minutes)`;
        await this.recordRun(m, row, check.id, 'timeout', now);
      } else if (row.status === 'not_started' && row.expectedAt && row.expectedAt <= now) status = 'delayed';
      if (status === row.status) continue;
      Object.assign(row, { status, message, updatedAt: now });
      await m.update(CheckDatabaseEntity, { id: row.id }, { status, message, updatedAt: now });
    }
    if (!(await this.settle(m, check, rows, now))) await this.scheduleTimer(m, check, rows, now);
  }

  /** The next moment something is due: a database's expected answer time or the check's deadline. */
  private async scheduleTimer(m: EntityManager, check: CheckEntity, rows: CheckDatabaseEntity[], now: Date): Promise<void> {
    const due = [
      ...rows.filter((r) => r.status === 'not_started' && r.expectedAt && r.expectedAt > now).map((r) => r.expectedAt!.getTime()),
      ...(check.deadlineAt ? [Math.max(check.deadlineAt.getTime(), now.getTime())] : []),
    ];
    if (!due.length) return;
    const at = Math.min(...due);
    await this.jobs.enqueue<TimerJob>(m, TIMER_QUEUE, { check_id: check.id }, { tenantId: check.tenantId, runAt: new Date(at), dedupeKey: `timer:${check.id}:${at}` });
  }

  // ------------------------------------------------------------------------------------ settle

  /**
   * Recomputes the check from its databases and stores it; finishes it (status, finished_at and the
   * checks.check.finished event, in the caller's transaction) when every database is final.
   * Returns true when the check finished.
   */
  private async settle(m: EntityManager, check: CheckEntity, rows: CheckDatabaseEntity[], now: Date): Promise<boolean> {
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
      result: { scores: scored.scores, statuses: databaseStatuses(databases), homonym_probability: scored.homonym_probability, ...summaries },
      updatedAt: now,
      ...(finished ? { finishedAt: now } : {}),
    });
    await m.update(
      CheckEntity,
      { id: check.id, tenantId: check.tenantId },
      { status, score: check.score, idScore: check.idScore, homonymScore: check.homonymScore, result: check.result as never, updatedAt: now, ...(finished ? { finishedAt: now } : {}) },
    );
    if (finished) {
      const extra: Partial<CheckFinishedPayload> = {};
      for (const extend of this.finishedExtensions) Object.assign(extra, await extend(m, check));
      await this.outbox.add(m, {
        topic: TOPICS.checkFinished,
        type: CHECK_EVENT_TYPES.finished,
        tenantId: check.tenantId,
        aggregateId: check.id,
        payload: { ...extra, check: checkRecord(check) } satisfies CheckFinishedPayload,
      });
      this.logger.log({ msg: 'check finished', check_id: check.id, tenant_id: check.tenantId, status, score: check.score });
    }
    return finished;
  }

  // ------------------------------------------------------------------------------------ helpers

  /** Which of these databases the tenant stored credentials for. */
  private async storedCredentials(m: EntityManager, tenantId: string, databaseIds: string[]): Promise<Set<string>> {
    if (!databaseIds.length) return new Set();
    const rows: { database_id: string }[] = await m.query(`SELECT database_id FROM collector_credentials WHERE tenant_id = $1 AND database_id = ANY($2)`, [tenantId, databaseIds]);
    return new Set(rows.map((r) => r.database_id));
  }

  private lockCheck(m: EntityManager, checkId: string, tenantId: string | null): Promise<CheckEntity | null> {
    if (!tenantId) return Promise.resolve(null);
    return m.getRepository(CheckEntity).createQueryBuilder('c').setLock('pessimistic_write').where('c.id = :id AND c.tenantId = :tenant', { id: checkId, tenant: tenantId }).getOne();
  }

  private rowsOf(m: EntityManager, check: CheckEntity): Promise<CheckDatabaseEntity[]> {
    return m.find(CheckDatabaseEntity, { where: { checkId: check.id, tenantId: check.tenantId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** One run of a database for the health dashboard (success, error or timeout, with its latency). */
  private async recordRun(m: EntityManager, row: CheckDatabaseEntity, checkId: string, outcome: 'success' | 'error' | 'timeout', now: Date): Promise<void> {
    const latency = Math.max(0, now.getTime() - (row.requestedAt ?? now).getTime());
    await m.query(`INSERT INTO collector_runs (database_id, country, tenant_id, check_id, outcome, latency_ms, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      row.databaseId,
      row.country,
      row.tenantId,
      checkId,
      outcome,
      latency,
      now,
    ]);
  }
}

const missingCredentials = (databaseId: string) => `no credentials stored for ${databaseId}: add them with POST /v1/config/credentials/${databaseId}`;

/** The name scoring compares name-only records with: the person's full name, else the company name. */
export function searchedName(check: Pick<CheckEntity, 'type' | 'inputs'>): string | null {
  const person = fullName(check.inputs.first_name, check.inputs.last_name);
  if (check.type === 'company') return check.inputs.company_name ?? null;
  return person || check.inputs.company_name || null;
}
