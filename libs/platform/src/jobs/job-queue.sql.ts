/**
 * The job queue's statements over `<schema>.jobs`. Only the platform writes this table: apps call
 * JobQueueService (enqueue, enqueueMany, complete, or its insertSql/completeSql fragments inside a
 * statement of their own).
 */

/** The columns of a JobRow as a record definition (`jsonb_to_recordset(...) AS j(...)`). */
export const JOB_RECORD =
  'queue text, tenant_id text, payload jsonb, max_attempts int, run_at timestamptz, dedupe_key text, correlation_id text';

/** $7: the id of the request queuing the job (its correlation id, null outside a request). */
export const INSERT_JOB_SQL = `INSERT INTO jobs (queue, tenant_id, payload, max_attempts, run_at, dedupe_key, correlation_id) VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7)
  ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`;

export const INSERT_JOBS_SQL = `INSERT INTO jobs (queue, tenant_id, payload, max_attempts, run_at, dedupe_key, correlation_id)
  SELECT $1, j.tenant_id, j.payload, j.max_attempts, j.run_at, j.dedupe_key, $7
    FROM unnest($2::text[], $3::jsonb[], $4::int[], $5::timestamptz[], $6::text[]) AS j(tenant_id, payload, max_attempts, run_at, dedupe_key)
  ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`;

/**
 * INSERT_JOB_SQL and INSERT_JOBS_SQL with the jobs' trace contexts ($8), used only while tracing
 * runs (trace-context.ts): without it the statements are the ones they always were.
 */
export const INSERT_JOB_TRACED_SQL = `INSERT INTO jobs (queue, tenant_id, payload, max_attempts, run_at, dedupe_key, correlation_id, trace_context) VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8::jsonb)
  ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`;

export const INSERT_JOBS_TRACED_SQL = `INSERT INTO jobs (queue, tenant_id, payload, max_attempts, run_at, dedupe_key, correlation_id, trace_context)
  SELECT $1, j.tenant_id, j.payload, j.max_attempts, j.run_at, j.dedupe_key, $7, j.trace_context
    FROM unnest($2::text[], $3::jsonb[], $4::int[], $5::timestamptz[], $6::text[], $8::jsonb[]) AS j(tenant_id, payload, max_attempts, run_at, dedupe_key, trace_context)
  ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`;

/** The INSERT of JobRows of JobQueueService.insertSql, over the bound JSON array `jobsParam`. */
export function insertJobRowsSql(jobsParam: string, where: string | undefined, traced: boolean): string {
  return `INSERT INTO jobs (queue, tenant_id, payload, max_attempts, run_at, dedupe_key, correlation_id${traced ? ', trace_context' : ''})
    SELECT j.queue, j.tenant_id, j.payload, j.max_attempts, j.run_at, j.dedupe_key, j.correlation_id${traced ? ', j.trace_context' : ''}
      FROM jsonb_to_recordset(${jobsParam}::jsonb) AS j(${JOB_RECORD}${traced ? ', trace_context jsonb' : ''})${where ? ` WHERE ${where}` : ''}
    ON CONFLICT (dedupe_key) DO NOTHING`;
}

/**
 * The queues among $1 with a job due at $2: a pending job whose run_at has come or a running one
 * whose lease lapsed. Each queue's earliest pending run_at and earliest lease are the first entry
 * of its partial index (jobs_pending_idx, jobs_lease_idx; ORDER BY ... LIMIT 1 keeps the planner
 * on them), a few index pages whatever the backlog; an EXISTS with the time bound was planned as
 * a sequential scan once most jobs were pending (docs/decisions/job-queue-due-queues.md).
 */
export const DUE_QUEUES_SQL = `SELECT q.queue FROM unnest($1::text[]) AS q(queue)
  WHERE (SELECT j.run_at FROM jobs j WHERE j.queue = q.queue AND j.status = 'pending' ORDER BY j.run_at LIMIT 1) <= $2
     OR (SELECT j.locked_until FROM jobs j WHERE j.queue = q.queue AND j.status = 'running' ORDER BY j.locked_until LIMIT 1) < $2`;

/**
 * Claims up to $4 jobs of queue $1 due at $2, leased until $3: jobs whose worker lost its lease
 * first, then due pending ones in order; each part reads its own partial index (jobs_lease_idx,
 * jobs_pending_idx), a few entries whatever the backlog.
 */
export const CLAIM_SQL = `WITH lapsed AS (
    SELECT id, locked_until AS due FROM jobs WHERE queue = $1 AND status = 'running' AND locked_until < $2
     ORDER BY locked_until LIMIT $4 FOR UPDATE SKIP LOCKED
  ), pending AS (
    SELECT id, run_at AS due FROM jobs WHERE queue = $1 AND status = 'pending' AND run_at <= $2
     ORDER BY run_at, id LIMIT $4 FOR UPDATE SKIP LOCKED
  )
  UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = $3, updated_at = now()
   WHERE id IN (SELECT id FROM (SELECT id, 0 AS rank, due FROM lapsed UNION ALL SELECT id, 1, due FROM pending) AS due ORDER BY rank, due LIMIT $4)
   RETURNING id, queue, tenant_id, payload, attempts, max_attempts, run_at, trace_context, correlation_id`;

/** Completes job $1 only if attempt $2 still owns it (a newer attempt may have taken over). */
export const COMPLETE_JOB_SQL = `UPDATE jobs SET status = 'completed', locked_until = NULL, updated_at = now(), finished_at = now() WHERE id = $1 AND attempts = $2`;

/** Records a failed attempt $2 of job $1: status $3 (pending to retry at $4, or failed), error $5. */
export const FAIL_JOB_SQL = `UPDATE jobs SET status = $3, run_at = $4, locked_until = NULL, last_error = $5, updated_at = now(),
    finished_at = CASE WHEN $3 = 'failed' THEN now() END
  WHERE id = $1 AND attempts = $2`;

/** Deletes up to $2 jobs that finished before $1. */
export const PURGE_JOBS_SQL = `DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE status IN ('completed', 'failed') AND finished_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1`;
