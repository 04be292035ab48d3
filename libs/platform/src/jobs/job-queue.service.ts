import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Counter } from 'prom-client';
import { DataSource, EntityManager } from 'typeorm';

import { commitSignal } from '../database/commit-signal';
import { preparedQuery, rawQuery } from '../database/raw-entity';
import { foregroundLoad } from '../observability/foreground-load';
import { metricsRegistry } from '../observability/metrics';
import { ambientContext } from '../observability/request-context.storage';
import { Clock } from '../time/clock';

export interface Job<T = unknown> {
  id: string;
  queue: string;
  tenantId: string | null;
  payload: T;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  runAt: Date;
}

export interface EnqueueOptions {
  tenantId?: string | null;
  /** When to run (default now, by the queue's clock). */
  runAt?: Date;
  maxAttempts?: number;
  /** A job with the same key is not enqueued twice (while it exists). */
  dedupeKey?: string;
}

export interface QueueOptions {
  concurrency?: number;
  /** How long a claimed job is locked; a worker that dies loses its claim after this. */
  lockMs?: number;
  /** Delay before retry n (1-based). Default: exponential from 1 s, capped at 5 min. */
  backoffMs?: (attempt: number) => number;
  /**
   * Run the handler in a transaction that also marks the job done: its database effects and the
   * job's completion commit together (exactly once). Leave false for handlers that call out
   * (HTTP, SMTP): they must be idempotent, since a crash after the effect re-runs the job.
   */
  transactional?: boolean;
}

/**
 * A job's work. A non-transactional handler that commits its effects in a transaction of its own
 * may complete the job in that same transaction (`JobQueueService.complete(m, job)`) and return
 * JOB_COMPLETED, sparing the separate completion statement.
 */
export type JobHandler<T> = (job: Job<T>, manager: EntityManager) => Promise<void | typeof JOB_COMPLETED>;

/** Returned by a handler that completed its job itself (JobQueueService.complete in its transaction). */
export const JOB_COMPLETED = 'job-completed' as const;

/** Thrown by a handler for a failure that retrying cannot fix: the job fails at once. */
export class PermanentJobError extends Error {}

interface Registration {
  handler: JobHandler<any>;
  options: Required<Omit<QueueOptions, 'backoffMs'>> & { backoffMs: (attempt: number) => number };
  inFlight: number;
  /** The last claim got every job it asked for: more are likely due, claim without looking first. */
  backlog: boolean;
}

/** Finished jobs past their retention are deleted this often, this many per statement. */
const PURGE_EVERY_MS = 10 * 60_000;
const PURGE_BATCH = 5_000;
/** Wake-ups look for due jobs in idle queues at most this often (see claim). */
const LOOK_EVERY_MS = 20;

/**
 * The queues among $1 with a job due at $2: a pending job whose run_at has come or a running one
 * whose lease lapsed. Each queue's earliest pending run_at and earliest lease are the first entry
 * of its partial index (jobs_pending_idx, jobs_lease_idx; ORDER BY ... LIMIT 1 keeps the planner
 * on them), a few index pages whatever the backlog. An EXISTS with the time bound was planned as a
 * sequential scan once most jobs were pending and due, so every empty queue read the whole table:
 * 370 ms per look with 150,000 jobs, and the engine stalled behind it (2 checks/s after a burst).
 */
export const DUE_QUEUES_SQL = `SELECT q.queue FROM unnest($1::text[]) AS q(queue)
  WHERE (SELECT j.run_at FROM jobs j WHERE j.queue = q.queue AND j.status = 'pending' ORDER BY j.run_at LIMIT 1) <= $2
     OR (SELECT j.locked_until FROM jobs j WHERE j.queue = q.queue AND j.status = 'running' ORDER BY j.locked_until LIMIT 1) < $2`;

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
      handler,
      inFlight: 0,
      backlog: false,
      options: {
        concurrency: options.concurrency ?? 4,
        lockMs: options.lockMs ?? 5 * 60_000,
        transactional: options.transactional ?? false,
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
    const rows = await runner.query(
      `INSERT INTO jobs (queue, tenant_id, payload, max_attempts, run_at, dedupe_key) VALUES ($1, $2, $3::jsonb, $4, $5, $6)
       ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
      [
        queue,
        options.tenantId ?? null,
        JSON.stringify(payload),
        options.maxAttempts ?? 5,
        options.runAt ?? this.clock.now(),
        options.dedupeKey ?? null,
      ],
    );
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
    const now = this.clock.now();
    const rows: unknown[] = await runner.query(
      `INSERT INTO jobs (queue, tenant_id, payload, max_attempts, run_at, dedupe_key)
       SELECT $1, j.tenant_id, j.payload, j.max_attempts, j.run_at, j.dedupe_key
         FROM unnest($2::text[], $3::jsonb[], $4::int[], $5::timestamptz[], $6::text[]) AS j(tenant_id, payload, max_attempts, run_at, dedupe_key)
       ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
      [
        queue,
        jobs.map((j) => j.options?.tenantId ?? null),
        jobs.map((j) => JSON.stringify(j.payload)),
        jobs.map((j) => j.options?.maxAttempts ?? 5),
        jobs.map((j) => j.options?.runAt ?? now),
        jobs.map((j) => j.options?.dedupeKey ?? null),
      ],
    );
    return rows.length;
  }

  start(pollMs: number, retentionHours = 0): void {
    this.started = true;
    commitSignal.on('commit', this.onCommit);
    const poll = () => {
      if (this.stopped) return;
      this.kick(true);
      if (retentionHours && Date.now() - this.lastPurge >= PURGE_EVERY_MS) {
        this.lastPurge = Date.now();
        void this.purgeFinished(retentionHours).catch((err) =>
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
      const rows = await rawQuery(
        this.dataSource,
        `DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE status IN ('completed', 'failed') AND finished_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1`,
        [cutoff, PURGE_BATCH],
      );
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
    if (!fromPoll && foregroundLoad.busy) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void this.pump(!fromPoll)
      .catch((err) => this.logger.warn({ err, msg: 'claiming jobs failed' }))
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
    const limit = (reg: Registration) => (foregroundLoad.busy ? 1 : reg.options.concurrency);
    const open = [...this.queues].filter(([, reg]) => limit(reg) > reg.inFlight).map(([queue]) => queue);
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
      const found = await rawQuery<{ queue: string }>(this.dataSource, DUE_QUEUES_SQL, [look, this.clock.now()]);
      for (const { queue } of found) due.add(queue);
    }
    for (const [queue, reg] of this.queues) {
      if (!due.has(queue)) continue;
      const free = limit(reg) - reg.inFlight;
      if (free <= 0) continue;
      // A busy queue with a backlog claims a quarter of its concurrency at a time, not one job
      // per finished one (each claim is a statement and a commit); its running jobs kick it again.
      if (reg.backlog && reg.inFlight > 0 && free < Math.ceil(reg.options.concurrency / 4)) continue;
      const now = this.clock.now();
      const jobs = await rawQuery<Record<string, any>>(
        this.dataSource,
        // Jobs whose worker lost its lease first, then due pending ones in order; each part reads
        // its own partial index (jobs_lease_idx, jobs_pending_idx), a few entries whatever the backlog.
        `WITH lapsed AS (
           SELECT id, locked_until AS due FROM jobs WHERE queue = $1 AND status = 'running' AND locked_until < $2
            ORDER BY locked_until LIMIT $4 FOR UPDATE SKIP LOCKED
         ), pending AS (
           SELECT id, run_at AS due FROM jobs WHERE queue = $1 AND status = 'pending' AND run_at <= $2
            ORDER BY run_at, id LIMIT $4 FOR UPDATE SKIP LOCKED
         )
         UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = $3, updated_at = now()
          WHERE id IN (SELECT id FROM (SELECT id, 0 AS rank, due FROM lapsed UNION ALL SELECT id, 1, due FROM pending) AS due ORDER BY rank, due LIMIT $4)
          RETURNING id, queue, tenant_id, payload, attempts, max_attempts, run_at`,
        [queue, now, new Date(now.getTime() + reg.options.lockMs), free],
      );
      reg.backlog = jobs.length === free;
      for (const row of jobs) {
        claimed++;
        const job: Job = {
          id: String(row.id),
          queue: row.queue,
          tenantId: row.tenant_id,
          payload: row.payload,
          attempt: row.attempts,
          maxAttempts: row.max_attempts,
          runAt: row.run_at,
        };
        reg.inFlight++;
        const run = this.run(job, reg).finally(() => {
          reg.inFlight--;
          this.running.delete(run);
          this.kick();
        });
        this.running.add(run);
      }
    }
    return claimed;
  }

  private async run(job: Job, reg: Registration): Promise<void> {
    await ambientContext.run(
      { requestId: `job-${job.queue}-${job.id}`, tenantId: job.tenantId ?? undefined },
      async () => {
        try {
          if (reg.options.transactional) {
            await this.dataSource.transaction(async (m) => {
              await reg.handler(job, m);
              await this.markDone(m, job);
            });
          } else if ((await reg.handler(job, this.dataSource.manager)) !== JOB_COMPLETED) {
            await this.markDone(this.dataSource.manager, job);
          }
          jobsRun.inc({ queue: job.queue, outcome: 'completed' });
        } catch (err) {
          const permanent = err instanceof PermanentJobError;
          const final = permanent || job.attempt >= job.maxAttempts;
          const retryAt = new Date(this.clock.now().getTime() + reg.options.backoffMs(job.attempt));
          await this.dataSource
            .query(
              `UPDATE jobs SET status = $3, run_at = $4, locked_until = NULL, last_error = $5, updated_at = now(), finished_at = CASE WHEN $3 = 'failed' THEN now() END
              WHERE id = $1 AND attempts = $2`,
              [
                job.id,
                job.attempt,
                final ? 'failed' : 'pending',
                final ? job.runAt : retryAt,
                String((err as Error)?.message ?? err).slice(0, 2_000),
              ],
            )
            .catch((e) => this.logger.error({ err: e, msg: 'could not record job failure' }));
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
    await preparedQuery(
      this.dataSource,
      'jobs.done',
      `UPDATE jobs SET status = 'completed', locked_until = NULL, updated_at = now(), finished_at = now() WHERE id = $1 AND attempts = $2`,
      [job.id, job.attempt],
      m,
    );
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
