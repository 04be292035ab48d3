import { currentRequestId } from '../observability/request-context.storage';
import { captureTraceContext, tracingActive } from '../observability/trace-context';
import { EnqueueOptions, JobRow } from './job';
import { INSERT_JOB_SQL, INSERT_JOB_TRACED_SQL, INSERT_JOBS_SQL, INSERT_JOBS_TRACED_SQL } from './job-queue.sql';

/**
 * How JobQueueService's enqueue paths write jobs: the statement and its parameters. While tracing
 * runs (trace-context.ts) each job also stores the trace context it continues (the given one,
 * else the active one); otherwise the statements are the ones they always were. Each job keeps
 * the id of the request (or job, or event) queuing it, its correlation id.
 */

const traceOf = (options: EnqueueOptions) =>
  JSON.stringify(options.traceContext === undefined ? captureTraceContext() : options.traceContext);

/** One job (JobQueueService.enqueue). */
export function insertJob(queue: string, payload: unknown, options: EnqueueOptions, now: Date): [string, unknown[]] {
  const params: unknown[] = [
    queue,
    options.tenantId ?? null,
    JSON.stringify(payload),
    options.maxAttempts ?? 5,
    options.runAt ?? now,
    options.dedupeKey ?? null,
    currentRequestId() ?? null,
  ];
  if (!tracingActive()) return [INSERT_JOB_SQL, params];
  return [INSERT_JOB_TRACED_SQL, [...params, traceOf(options)]];
}

/** Several jobs of a queue in one statement (JobQueueService.enqueueMany). */
export function insertJobs(
  queue: string,
  jobs: { payload: unknown; options?: EnqueueOptions }[],
  now: Date,
): [string, unknown[]] {
  const params: unknown[] = [
    queue,
    jobs.map((j) => j.options?.tenantId ?? null),
    jobs.map((j) => JSON.stringify(j.payload)),
    jobs.map((j) => j.options?.maxAttempts ?? 5),
    jobs.map((j) => j.options?.runAt ?? now),
    jobs.map((j) => j.options?.dedupeKey ?? null),
    currentRequestId() ?? null,
  ];
  if (!tracingActive()) return [INSERT_JOBS_SQL, params];
  return [INSERT_JOBS_TRACED_SQL, [...params, jobs.map((j) => traceOf(j.options ?? {}))]];
}

/** A job as JobQueueService.insertSql inserts it (JobQueueService.row). */
export function jobRow<T>(queue: string, payload: T, options: EnqueueOptions, now: Date): JobRow<T> {
  const row: JobRow<T> = {
    queue,
    tenant_id: options.tenantId ?? null,
    payload,
    max_attempts: options.maxAttempts ?? 5,
    run_at: options.runAt ?? now,
    dedupe_key: options.dedupeKey ?? null,
    correlation_id: currentRequestId() ?? null,
  };
  if (tracingActive())
    row.trace_context = options.traceContext === undefined ? captureTraceContext() : options.traceContext;
  return row;
}
