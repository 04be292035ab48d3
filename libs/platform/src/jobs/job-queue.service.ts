import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Counter } from 'prom-client';
import { DataSource, EntityManager } from 'typeorm';

import { commitSignal } from '../database/commit-signal';
import { preparedQuery, rawQuery } from '../database/raw-entity';
import { foregroundLoad } from '../observability/foreground-load';
import { metricsRegistry } from '../observability/metrics';
import { ambientContext } from '../observability/request-context.storage';
import { runDetached, runInTraceContext, TraceCarrier, tracingActive } from '../observability/trace-context';
import { Clock } from '../time/clock';
import {
  EnqueueOptions,
  Job,
  JOB_COMPLETED,
  JobHandler,
  JobRow,
  JobSource,
  PermanentJobError,
  QueueOptions,
} from './job';
import {
  CLAIM_SQL,
  COMPLETE_JOB_SQL,
  DUE_QUEUES_SQL,
  FAIL_JOB_SQL,
  insertJobRowsSql,
  PURGE_JOBS_SQL,
} from './job-queue.sql';
import { insertJob, insertJobs, jobRow } from './job-rows';

export * from './job';
export { DUE_QUEUES_SQL } from './job-queue.sql';

interface ClaimedRow {
  id: string | number;
  queue: string;
  tenant_id: string | null;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  trace_context: TraceCarrier | null;
  correlation_id: string | null;
}

const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));

interface Registration {
  handler: JobHandler<unknown>;
  options: Required<Omit<QueueOptions, 'backoffMs' | 'source'>> & { backoffMs: (attempt: number) => number };
  /** The queue's items are the service's own rows (QueueOptions.source), not jobs rows. */
  source?: JobSource;
  inFlight: number;
  /** The last claim got every job it asked for: more are likely due, claim without looking first. */
  backlog: boolean;
}

/** Finished jobs past their retention are deleted this often, this many per statement. */
const PURGE_EVERY_MS = 10 * 60_000;
const PURGE_BATCH = 5_000;
/** Wake-ups look for due jobs in idle queues at most this often (see claim). */
const LOOK_EVERY_MS = 20;

const jobsRun = new Counter({
  name: 'jobs_run_total',
  help: 'Jobs run by queue and outcome',
  labelNames: ['queue', 'outcome'] as const,
  registers: [metricsRegistry],
});

/**
 * The durable job queue of a service: rows in `<schema>.jobs`, claimed with FOR UPDATE SKIP
 * LOCKED (any number of workers and replicas), retried with backoff, recovered after a crash when
 * their lock expires, woken after each commit of this process and by polling. Due times come from the injected
 * Clock, so tests can move time instead of sleeping.
 */
@Injectable()
export class JobQueueService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('jobs');
  private readonly queues = new Map<string, Registration>();
  private started = false;
  private readonly onCommit = () => this.kick();
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private pumping = false;
  private pumpAgain = false;
  private readonly running = new Set<Promise<void>>();
  /** Claims are serialized, so drain() always sees the jobs a background pass claimed. */
  private claimChain: Promise<unknown> = Promise.resolve();
  private lastPurge = 0;
  private lastLook = 0;
  private lookTimer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  register<T>(queue: string, handler: JobHandler<T>, options: QueueOptions = {}): void {
    this.queues.set(queue, {
      handler: handler as JobHandler<unknown>,
      inFlight: 0,
      backlog: false,
      source: options.source,
      options: {
        concurrency: options.concurrency ?? 4,
        lockMs: options.lockMs ?? 5 * 60_000,
        transactional: options.transactional ?? false,
        yields: options.yields ?? true,
        backoffMs: options.backoffMs ?? ((n) => Math.min(300_000, 1_000 * 2 ** (n - 1))),
      },
    });
    this.kick();
  }

  /** Adds a job; pass the manager of the caller's transaction to enqueue atomically with its change. */
  async enqueue<T>(
    manager: EntityManager | null,
    queue: string,
    payload: T,
    options: EnqueueOptions = {},
  ): Promise<string | null> {
    const runner = manager ?? this.dataSource.manager;
    const [sql, params] = insertJob(queue, payload, options, this.clock.now());
    const rows: { id: string }[] = await runner.query(sql, params);
    return rows[0]?.id ?? null;
  }

  /**
   * Adds several jobs of a queue in one statement; returns how many were added (a job whose
   * dedupeKey exists is not). Pass the manager of the caller's transaction to enqueue atomically.
   */
  async enqueueMany<T>(
    manager: EntityManager | null,
    queue: string,
    jobs: { payload: T; options?: EnqueueOptions }[],
  ): Promise<number> {
    if (!jobs.length) return 0;
    const runner = manager ?? this.dataSource.manager;
    const [sql, params] = insertJobs(queue, jobs, this.clock.now());
    const rows: unknown[] = await runner.query(sql, params);
    return rows.length;
  }

  /** A job as `insertSql` inserts it (serialize an array of them with JSON.stringify). */
  row<T>(queue: string, payload: T, options: EnqueueOptions = {}): JobRow<T> {
    return jobRow(queue, payload, options, this.clock.now());
  }

  /**
   * The INSERT of jobs for a data-modifying WITH of the caller's own statement (the state change
   * and the work it queues in one statement, as enqueueMany in its transaction): `jobsParam` is
   * the placeholder (`$5`) of a bound JSON array of JobRow (`row()`); `where` optionally keeps
   * some of them (over the alias `j`). A job whose dedupe key exists is not added. Such a
   * statement run alone (autocommit) goes through `writeQuery`, which wakes the queue. While
   * tracing runs (known at process start) it also stores each job's trace context.
   */
  insertSql(jobsParam: string, where?: string): string {
    return insertJobRowsSql(jobsParam, where, tracingActive());
  }

  /**
   * `complete` for a data-modifying WITH of the caller's own statement: completes the jobs of the
   * bound arrays `idsParam` (bigint[]) and `attemptsParam` (int[], the claimed attempt of each),
   * each only if that attempt still owns it. The handler then returns JOB_COMPLETED.
   */
  completeSql(idsParam: string, attemptsParam: string): string {
    // The id array also as ANY(...): the planner finds the jobs by primary key instead of joining the whole table.
    return `UPDATE jobs SET status = 'completed', locked_until = NULL, updated_at = now(), finished_at = now()
      FROM unnest(${idsParam}::bigint[], ${attemptsParam}::int[]) AS done(id, attempt)
     WHERE jobs.id = ANY(${idsParam}::bigint[]) AND jobs.id = done.id AND jobs.attempts = done.attempt`;
  }

  start(pollMs: number, retentionHours = 0): void {
    this.started = true;
    commitSignal.on('commit', this.onCommit);
    const poll = () => {
      if (this.stopped) return;
      this.kick(true);
      if (retentionHours && Date.now() - this.lastPurge >= PURGE_EVERY_MS) {
        this.lastPurge = Date.now();
        void this.purgeFinished(retentionHours).catch((err: unknown) =>
          this.logger.warn({ err, msg: 'purging finished jobs failed' }),
        );
      }
      this.timer = setTimeout(poll, pollMs);
    };
    poll();
  }

  /**
   * Deletes jobs that finished (completed or failed) more than `retentionHours` ago by the queue's
   * clock, a bounded batch per statement so no statement holds many row locks for long. Runs
   * every 10 minutes from the poll; any number of replicas may run it at once. Returns how many
   * were deleted.
   */
  async purgeFinished(retentionHours: number): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - retentionHours * 3_600_000);
    let total = 0;
    for (;;) {
      const rows = await rawQuery(this.dataSource, PURGE_JOBS_SQL, [cutoff, PURGE_BATCH]);
      total += rows.length;
      if (rows.length < PURGE_BATCH || this.stopped) return total;
    }
  }

  /**
   * Looks for due jobs now (also called by tests after moving the clock). While the process's
   * HTTP requests keep it saturated (foregroundLoad.busy) only the poll claims, one job per queue.
   */
  kick(fromPoll = false): void {
    if (this.stopped || !this.started) return;
    if (!fromPoll && foregroundLoad.busy && ![...this.queues.values()].some((reg) => !reg.options.yields)) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    // Outside the trace of whoever kicked (a request's commit): claims belong to no request.
    void runDetached(() => this.pump(!fromPoll))
      .catch((err: unknown) => this.logger.warn({ err, msg: 'claiming jobs failed' }))
      .finally(() => {
        this.pumping = false;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.kick();
        }
      });
  }

  /** Runs every job due now by the clock and waits for them (tests and one-shot tools). */
  async drain(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let quiet = 0;
    while (Date.now() < deadline) {
      const claimed = await this.pump();
      // Jobs a background pass claimed count too: what they enqueue may be due now.
      const waited = this.running.size;
      await Promise.all(this.running);
      // Done after two quiet passes a moment apart: a due row still locked by a committing
      // transaction is skipped (SKIP LOCKED) by one pass but not by the next.
      quiet = claimed || waited ? 0 : quiet + 1;
      if (quiet >= 2) return;
      if (quiet) await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`job queue not drained after ${timeoutMs} ms`);
  }

  private pump(throttleLook = false): Promise<number> {
    const next = this.claimChain.then(() => this.claim(throttleLook));
    this.claimChain = next.catch(() => undefined);
    return next;
  }

  /**
   * Claims due jobs for every queue with room. `throttleLook` (wake-ups after commits and finished
   * jobs): the read that looks for due jobs in idle queues runs at most every LOOK_EVERY_MS, and a
   * look skipped for that runs when the interval ends. A process committing hundreds of times a
   * second otherwise ran that read as often, and on a jobs table full of jobs that just left the
   * pending index (dead entries until vacuum) it was a third of PostgreSQL's work.
   */
  private async claim(throttleLook = false): Promise<number> {
    let claimed = 0;
    const busy = foregroundLoad.busy;
    const limit = (reg: Registration) => (busy && reg.options.yields ? 1 : reg.options.concurrency);
    // A wake-up while busy claims for the queues that do not yield only; the poll claims for all.
    const claimable = (reg: Registration) => !(busy && throttleLook && reg.options.yields);
    const open = [...this.queues]
      .filter(([, reg]) => claimable(reg) && limit(reg) > reg.inFlight)
      .map(([queue]) => queue);
    if (!open.length) return 0;
    // Queues whose last claim was full are claimed from directly; the others are looked at first.
    let look = open.filter((queue) => !this.queues.get(queue)!.backlog);
    const wait = this.lastLook + LOOK_EVERY_MS - Date.now();
    if (look.length && throttleLook && wait > 0) {
      this.lookTimer ??= setTimeout(() => {
        this.lookTimer = undefined;
        this.kick();
      }, wait);
      look = [];
    }
    if (look.length) this.lastLook = Date.now();
    // One read finds the queues with due jobs, so an idle poll costs one query, not one per queue.
    const due = new Set<string>(open.filter((queue) => this.queues.get(queue)!.backlog));
    if (look.length) {
      const now = this.clock.now();
      const fromJobs = look.filter((queue) => !this.queues.get(queue)!.source);
      if (fromJobs.length) {
        const found = await rawQuery<{ queue: string }>(this.dataSource, DUE_QUEUES_SQL, [fromJobs, now]);
        for (const { queue } of found) due.add(queue);
      }
      for (const queue of look) {
        const source = this.queues.get(queue)!.source;
        if (source && (await rawQuery(this.dataSource, source.dueSql, [now])).length) due.add(queue);
      }
    }
    for (const [queue, reg] of this.queues) {
      if (!due.has(queue) || !claimable(reg)) continue;
      const free = limit(reg) - reg.inFlight;
      if (free <= 0) continue;
      // A busy queue with a backlog claims a quarter of its concurrency at a time, not one job
      // per finished one (each claim is a statement and a commit); its running jobs kick it again.
      if (reg.backlog && reg.inFlight > 0 && free < Math.ceil(reg.options.concurrency / 4)) continue;
      const now = this.clock.now();
      const until = new Date(now.getTime() + reg.options.lockMs);
      const jobs = reg.source
        ? await rawQuery<ClaimedRow>(this.dataSource, reg.source.claimSql, [now, until, free])
        : await rawQuery<ClaimedRow>(this.dataSource, CLAIM_SQL, [queue, now, until, free]);
      reg.backlog = jobs.length === free;
      for (const row of jobs) {
        claimed++;
        const job: Job = {
          id: String(row.id),
          queue,
          tenantId: row.tenant_id,
          payload: row.payload,
          attempt: row.attempts,
          maxAttempts: row.max_attempts,
          runAt: row.run_at,
        };
        reg.inFlight++;
        const run = this.run(job, reg, row.trace_context, row.correlation_id).finally(() => {
          reg.inFlight--;
          this.running.delete(run);
          this.kick();
        });
        this.running.add(run);
      }
    }
    return claimed;
  }

  /** Runs a claimed job (in a span continuing the trace that enqueued it, when tracing runs). */
  private async run(
    job: Job,
    reg: Registration,
    trace: TraceCarrier | null,
    correlationId: string | null,
  ): Promise<void> {
    const attributes = { 'job.queue': job.queue, 'job.id': job.id, 'job.attempt': String(job.attempt) };
    await ambientContext.run(
      // The request that queued the job (its events carry it as correlation_id), else the job itself.
      { requestId: correlationId ?? `job-${job.queue}-${job.id}`, tenantId: job.tenantId ?? undefined },
      async () => {
        try {
          // The work in a span continuing the trace that enqueued the job (a failure ends it in error).
          await runInTraceContext(trace, `job ${job.queue}`, attributes, async () => {
            if (reg.options.transactional) {
              await this.dataSource.transaction(async (m) => {
                await reg.handler(job, m);
                if (!reg.source) await this.markDone(m, job);
              });
            } else if ((await reg.handler(job, this.dataSource.manager)) !== JOB_COMPLETED && !reg.source) {
              await this.markDone(this.dataSource.manager, job);
            }
          });
          jobsRun.inc({ queue: job.queue, outcome: 'completed' });
        } catch (err: unknown) {
          const permanent = err instanceof PermanentJobError;
          const final = permanent || job.attempt >= job.maxAttempts;
          const retryAt = new Date(this.clock.now().getTime() + reg.options.backoffMs(job.attempt));
          const failed = reg.source
            ? rawQuery(this.dataSource, reg.source.failSql, [job.id, job.attempt, final, retryAt])
            : rawQuery(this.dataSource, FAIL_JOB_SQL, [
                job.id,
                job.attempt,
                final ? 'failed' : 'pending',
                final ? job.runAt : retryAt,
                errorMessage(err).slice(0, 2_000),
              ]);
          await failed.catch((e: unknown) => this.logger.error({ err: e, msg: 'could not record job failure' }));
          jobsRun.inc({ queue: job.queue, outcome: final ? 'failed' : 'retried' });
          this.logger.warn({
            err,
            queue: job.queue,
            job_id: job.id,
            attempt: job.attempt,
            final,
            msg: final ? 'job failed' : 'job failed; will retry',
          });
        }
      },
    );
  }

  /**
   * Completes a job in the caller's transaction (a non-transactional handler committing its
   * effects; it then returns JOB_COMPLETED). Only if this attempt still owns the job.
   */
  complete(m: EntityManager, job: Job): Promise<void> {
    return this.markDone(m, job);
  }

  /** Completes a job only if this attempt still owns it (a newer attempt may have taken over). */
  private async markDone(m: EntityManager, job: Job): Promise<void> {
    await preparedQuery(this.dataSource, 'jobs.done', COMPLETE_JOB_SQL, [job.id, job.attempt], m);
  }

  /**
   * Stops claiming and lets running jobs finish while the database is still open (Nest calls this
   * before any onApplicationShutdown, where TypeORM closes its connections).
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.lookTimer);
    await this.claimChain;
    await Promise.allSettled([...this.running]);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.lookTimer);
    commitSignal.off('commit', this.onCommit);
    await Promise.allSettled([...this.running]);
  }
}
