import type { EntityManager } from 'typeorm';

import type { TraceCarrier } from '../observability/trace-context';

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
  /** The trace the job continues (default: the active one, when tracing runs). */
  traceContext?: TraceCarrier | null;
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
  /**
   * While HTTP requests keep the process busy (foregroundLoad), a queue runs at its floor: one job,
   * claimed by the poll only. false for a queue whose work runs off the event loop below normal
   * priority (the validations engines' threads), or whose jobs are the rest of the very requests
   * that queue them (engagement's provider webhooks: yielding, its backlog grew as fast as they came):
   * it keeps its concurrency and is claimed on every wake-up, so its jobs wait for no poll.
   */
  yields?: boolean;
  /**
   * The queue's work items are rows of a table of the service (e.g. checks waiting to start)
   * instead of `jobs` rows: the queue claims, retries and recovers them through these statements,
   * and a handler's own effect completes an item (it leaves the claim's condition). Such an item
   * costs no jobs row, no claim of one and no completion.
   */
  source?: JobSource;
}

/**
 * The statements of a queue whose items are the service's own rows (QueueOptions.source). Each
 * item carries its own attempt count and lease, so the queue's guarantees hold as for `jobs`:
 * claimed by one worker at a time (FOR UPDATE SKIP LOCKED), taken over when its lease lapses,
 * retried until max attempts.
 */
export interface JobSource {
  /** One row (any columns) when an item is due at $1 (a claimable lease: none, or lapsed). */
  dueSql: string;
  /**
   * Claims up to $3 items due at $1, leased until $2, counting an attempt; returns per item the
   * columns of a claimed job: id (text), tenant_id, payload, attempts, max_attempts, run_at,
   * trace_context, correlation_id.
   */
  claimSql: string;
  /**
   * A failed attempt: item $1, attempt $2 (only if that attempt still owns it), $3 true when it is
   * final (never claimed again), else claimable again from $4.
   */
  failSql: string;
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

/** A job as the caller's statement inserts it (JobQueueService.row and insertSql). */
export interface JobRow<T = unknown> {
  queue: string;
  tenant_id: string | null;
  payload: T;
  max_attempts: number;
  run_at: Date;
  dedupe_key: string | null;
  /** The id of the request that queued the job: the job runs with it (its events' correlation_id). */
  correlation_id?: string | null;
  /** Set only while tracing runs (trace-context.ts). */
  trace_context?: TraceCarrier | null;
}
