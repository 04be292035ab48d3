import type { JobQueueService, OutboxService } from '@kyc/platform';

/**
 * The statements of CheckRunStore (a check's run by the engine: its databases, its state and
 * result, its collector runs, the finished event and the engine's jobs), run by CheckRunStore
 * only. Values are always bound parameters; the outbox and jobs parts are the platform's own
 * fragments (OutboxService.insertSql, JobQueueService.insertSql / completeSql).
 */

/** Attempts at starting a check (as the start jobs had). */
export const START_MAX_ATTEMPTS = 10;

export const LOCK_CHECK_SQL = `SELECT * FROM checks WHERE id = $1 AND tenant_id = $2 FOR UPDATE`;

/**
 * A statement of its own after the lock: in READ COMMITTED a statement that waited for the lock
 * reads everything but the locked row with the snapshot it took before waiting.
 */
export const CHECK_DATABASES_SQL = `SELECT * FROM check_databases WHERE check_id = $1 AND tenant_id = $2 ORDER BY created_at, id`;

/** The check and the databases its tenant stored credentials for, in one read. */
export const LOAD_FOR_START_SQL = `SELECT c.*, ARRAY(SELECT database_id FROM collector_credentials WHERE tenant_id = c.tenant_id) AS stored_credentials
  FROM checks c WHERE c.id = $1 AND c.tenant_id = $2`;

/**
 * The checks waiting to start as the engine's start work items (JobSource of the queue
 * WAITING_START_QUEUE; a new check has no start job): a not_started check written by this version
 * (self_start; one of the previous version has its start job) without a live claim in the
 * UNLOGGED check_start_claims (none, or its lease lapsed), from checks_start_due_idx. No ORDER BY:
 * while a burst of new checks outruns the table's statistics the planner estimates a handful of
 * waiting checks and, to sort them, read and sorted every one of them (12 ms per claim with 9,000
 * waiting); without it a claim stops at the first due ones in heap order, which is creation order.
 */
const START_DUE_WHERE = `c.status = 'not_started' AND c.self_start AND c.created_at <= $1
   AND NOT EXISTS (SELECT 1 FROM check_start_claims s WHERE s.check_id = c.id AND s.claimed_until >= $1)`;

/** One row when a check waiting to start is due at $1. */
export const START_DUE_SQL = `SELECT 1 FROM checks c WHERE ${START_DUE_WHERE} LIMIT 1`;

/**
 * Claims up to $3 checks due to start at $1, leased until $2, counting an attempt (as the jobs'
 * claim). The row locks (SKIP LOCKED) keep concurrent claimers off each other's checks; a claimer
 * whose snapshot missed a claim just committed finds its lease in ON CONFLICT and gets nothing.
 */
export const START_CLAIM_SQL = `WITH due AS (
    SELECT c.id, c.tenant_id, c.created_at, c.trace_context, c.correlation_id FROM checks c
     WHERE ${START_DUE_WHERE} LIMIT $3 FOR UPDATE OF c SKIP LOCKED
  ), claimed AS (
    INSERT INTO check_start_claims AS s (check_id, attempts, claimed_until) SELECT id, 1, $2 FROM due
    ON CONFLICT (check_id) DO UPDATE SET attempts = s.attempts + 1, claimed_until = EXCLUDED.claimed_until WHERE s.claimed_until < $1
    RETURNING s.check_id, s.attempts
  )
  SELECT d.id, d.tenant_id, jsonb_build_object('check_id', d.id) AS payload, cl.attempts, ${START_MAX_ATTEMPTS} AS max_attempts,
         d.created_at AS run_at, d.trace_context, d.correlation_id
    FROM claimed cl JOIN due d ON d.id = cl.check_id`;

/** A failed start attempt $2 of check $1: claimable again from $4, or never ($3, its last attempt). */
export const START_FAIL_SQL = `UPDATE check_start_claims SET claimed_until = CASE WHEN $3::boolean THEN 'infinity'::timestamptz ELSE $4::timestamptz END
  WHERE check_id = $1 AND attempts = $2`;

export const COUNT_ATTEMPT_SQL = `UPDATE check_databases SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts`;

/**
 * A timer's writes in one statement: the databases that became `delayed` or `expired` ($3, of check
 * $1, at $2), the check's status, scores and result ($4-$9), the runs of the expired ones ($10), the
 * finished event ($11, empty when not finishing) and the check's next timer ($12, empty when none).
 */
export const timerSql = (outbox: OutboxService, jobs: JobQueueService) => `WITH dbs AS (
    UPDATE check_databases d SET status = v.status, message = v.message, updated_at = $2
      FROM jsonb_to_recordset($3::jsonb) AS v(id text, status text, message text) WHERE d.id = v.id AND d.check_id = $1
  ), ${settledCheckSql(outbox, { check: 1, now: 2, first: 4 })}, next AS (
    ${jobs.insertSql('$12')}
  )
  SELECT 1`;

/**
 * The CTEs `c`, `runs` and `evt` that settle a check (settledParams of check-run.store.ts, bound from
 * parameter `first` on): its status, scores, result and finished_at, its collector runs and its
 * finished event (an empty array when not finishing); `check` and `now` are the check id's and the
 * moment's parameters.
 */
const settledCheckSql = (outbox: OutboxService, at: { check: number; now: number; first: number }) => {
  const $ = (i: number) => `$${at.first + i}`;
  return `c AS (
    UPDATE checks SET status = ${$(0)}, score = ${$(1)}, id_score = ${$(2)}, homonym_score = ${$(3)}, result = ${$(4)}::json, updated_at = $${at.now}, finished_at = COALESCE(${$(5)}, finished_at) WHERE id = $${at.check}
  ), runs AS (
    ${insertRunsSql($(6))}
  ), evt AS (
    ${outbox.insertSql($(7))}
  )`;
};

/**
 * The insert of collector runs (RunRow, see runRow) from the bound JSON array `param`, optionally
 * kept by `where` over the alias `r`: the one way the engine writes collector_runs.
 */
export const insertRunsSql = (param: string, where?: string) =>
  `INSERT INTO collector_runs (database_id, country, tenant_id, check_id, outcome, latency_ms, finished_at)
    SELECT r.database_id, r.country, r.tenant_id, r.check_id, r.outcome, r.latency_ms, r.finished_at
      FROM jsonb_to_recordset(${param}::jsonb) AS r(database_id text, country text, tenant_id text, check_id text, outcome text,
                                                   latency_ms bigint, finished_at timestamptz)${where ? ` WHERE ${where}` : ''}`;

/**
 * Records one database's outcome and settles its check: the database ($1 of check $2), the check's
 * status, scores and result, its collector runs ($13), the finished event ($14, empty when not
 * finishing) and the collect job's completion ($15 ids, $16 attempts; empty without a job).
 */
export const recordSql = (outbox: OutboxService, jobs: JobQueueService) => `WITH d AS (
    UPDATE check_databases SET status = $3, answer = $4::jsonb, message = $5, answered_at = $6, updated_at = $6 WHERE id = $1 AND check_id = $2
  ), ${settledCheckSql(outbox, { check: 2, now: 6, first: 7 })}, done AS (
    ${jobs.completeSql('$15', '$16')}
  )
  SELECT 1`;

/**
 * Starts checks (StartItem, $1; their ids $2), each only if still not_started, with its databases
 * and of the started ones only: the collector runs ($7), the finished events ($3), the collect
 * and timer jobs ($4, by check_id). Completes the start jobs ($5 ids, $6 attempts), started or not,
 * and forgets the started checks' claims (check_start_claims).
 * Returns per item (in order) whether it started. The id array lets the planner find the checks by
 * primary key: it estimates a recordset at 100 rows and would otherwise scan the whole table.
 */
export const startSql = (outbox: OutboxService, jobs: JobQueueService) => `WITH s AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS s(i int, id text, tenant_id text, status text, score double precision, id_score double precision,
                                                    homonym_score double precision, result json, started_at timestamptz, deadline_at timestamptz,
                                                    updated_at timestamptz, finished_at timestamptz, databases jsonb)
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
    ${insertRunsSql('$7', 'r.check_id IN (SELECT id FROM c)')}
  ), evt AS (
    ${outbox.insertSql('$3', 'e.message_key IN (SELECT id FROM c)')}
  ), jb AS (
    ${jobs.insertSql('$4', "j.payload->>'check_id' IN (SELECT id FROM c)")}
  ), done AS (
    ${jobs.completeSql('$5', '$6')}
  ), unclaimed AS (
    DELETE FROM check_start_claims WHERE check_id IN (SELECT id FROM c)
  )
  SELECT s.i, c.id IS NOT NULL AS started FROM s LEFT JOIN c ON c.id = s.id ORDER BY s.i`;
