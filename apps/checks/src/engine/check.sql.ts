import type { JobQueueService, OutboxService } from '@kyc/platform';

/**
 * The statements of the check aggregate (checks, check_databases and their collector_runs), run
 * by CheckStore only. Values are always bound parameters; the outbox and jobs parts are the
 * platform's own fragments (OutboxService.insertSql, JobQueueService.insertSql / completeSql).
 */

/**
 * Stores a group of checks (the JSON recordset $1), their created events ($3) and start jobs ($4);
 * per check: created, an existing recent one with its inputs ($2 seconds), or unknown custom type.
 * It also copies the custom type's weights and the tenant's settings onto the check. Planned per
 * call, never as a prepared statement: the de-duplication lookup's best index depends on the
 * table's size, and a plan cached while checks was nearly empty scanned every recent check of the
 * tenant for each new one.
 */
export const createSql = (outbox: OutboxService, jobs: JobQueueService) => `WITH r AS (
     SELECT r.*, ct.weights AS custom_weights, (r.built_in OR ct.weights IS NOT NULL) AS known
       FROM jsonb_to_recordset($1::jsonb) AS r(i int, id text, tenant_id text, country text, type text, inputs jsonb, input_hash text, force boolean, built_in boolean,
                                                custom_input text, report_id text, user_authorized boolean, created_by text, created_at timestamptz, region text,
                                                previous_check text, rule_depth int, requested_by_execution text)
       LEFT JOIN custom_types ct ON NOT r.built_in AND ct.tenant_id = r.tenant_id AND ct.country = r.country AND ct.type = r.type
   ), d AS (
     SELECT r.*, (SELECT (array_agg(c.id ORDER BY c.created_at DESC))[1] FROM checks c
                   WHERE c.tenant_id = r.tenant_id AND c.input_hash = r.input_hash AND NOT r.force AND c.status <> 'error'
                     AND c.created_at > r.created_at - ($2 * interval '1 second')) AS recent_id
       FROM r WHERE r.known
   ), ins AS (
     INSERT INTO checks (id, tenant_id, country, type, status, inputs, input_hash, custom_input, report_id, user_authorized, created_by, created_at, updated_at,
                         region, previous_check, weights, settings, rule_depth, requested_by_execution)
     SELECT d.id, d.tenant_id, d.country, d.type, 'not_started', d.inputs, d.input_hash, d.custom_input, d.report_id, d.user_authorized, d.created_by, d.created_at, d.created_at,
            d.region, d.previous_check, d.custom_weights,
            (SELECT jsonb_build_object('max_duration_minutes', s.max_duration_minutes, 'retries', s.retries, 'names_matching_type', s.names_matching_type)
               FROM check_settings s WHERE s.tenant_id = d.tenant_id),
            d.rule_depth, d.requested_by_execution
       FROM d WHERE d.recent_id IS NULL
     RETURNING id
   ), evt AS (
     ${outbox.insertSql('$3', 'e.message_key IN (SELECT id FROM ins)')}
   ), job AS (
     ${jobs.insertSql('$4', "j.payload->>'check_id' IN (SELECT id FROM ins)")}
   )
   SELECT r.i, CASE WHEN NOT r.known THEN 'unknown_type' WHEN d.recent_id IS NOT NULL THEN 'existing' ELSE 'created' END AS outcome, COALESCE(d.recent_id, r.id) AS id
     FROM r LEFT JOIN d ON d.i = r.i ORDER BY r.i`;

/**
 * The SQL (over the alias `c`) of a check's public result fields as JSON text, for
 * presentCheckJson: the stored result itself, which the engine writes with exactly those fields
 * (CheckEntity.result; scores, statuses and summary always there, no null values), so it is what
 * publicResults() makes of it (check.presenter.ts). NULL while the check has no result.
 */
export const RESULT_JSON_SQL = `c.result::text`; // a json column: its text as stored, not re-serialized

/**
 * GET /v1/checks/{id}: the given columns and the result as JSON text (RESULT_JSON_SQL) of one check
 * of a tenant ($1, $2).
 */
export const presentedCheckSql = (columns: string[]) =>
  `SELECT ${columns.map((column) => `c."${column}"`).join(', ')}, ${RESULT_JSON_SQL} AS result_json
      FROM checks c WHERE c.tenant_id = $1 AND c.id = $2`;

export const LOCK_CHECK_SQL = `SELECT * FROM checks WHERE id = $1 AND tenant_id = $2 FOR UPDATE`;

/**
 * A statement of its own after the lock: in READ COMMITTED a statement that waited for the lock
 * reads everything but the locked row with the snapshot it took before waiting.
 */
export const CHECK_DATABASES_SQL = `SELECT * FROM check_databases WHERE check_id = $1 AND tenant_id = $2 ORDER BY created_at, id`;

/** The check and the databases its tenant stored credentials for, in one read. */
export const LOAD_FOR_START_SQL = `SELECT c.*, ARRAY(SELECT database_id FROM collector_credentials WHERE tenant_id = c.tenant_id) AS stored_credentials
  FROM checks c WHERE c.id = $1 AND c.tenant_id = $2`;

export const COUNT_ATTEMPT_SQL = `UPDATE check_databases SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts`;

/**
 * A timer's writes in one statement: the databases that became `delayed` or `expired` ($3, of check
 * $1, at $2), the check's status, scores and result ($4-$9), the runs of the expired ones ($10), the
 * finished event ($11, empty when not finishing) and the check's next timer ($12, empty when none).
 */
export const timerSql = (outbox: OutboxService, jobs: JobQueueService) => `WITH dbs AS (
    UPDATE check_databases d SET status = v.status, message = v.message, updated_at = $2
      FROM jsonb_to_recordset($3::jsonb) AS v(id text, status text, message text) WHERE d.id = v.id AND d.check_id = $1
  ), c AS (
    UPDATE checks SET status = $4, score = $5, id_score = $6, homonym_score = $7, result = $8::json, updated_at = $2, finished_at = COALESCE($9, finished_at) WHERE id = $1
  ), runs AS (
    ${insertRunsSql('$10')}
  ), evt AS (
    ${outbox.insertSql('$11')}
  ), next AS (
    ${jobs.insertSql('$12')}
  )
  SELECT 1`;

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
  ), c AS (
    UPDATE checks SET status = $7, score = $8, id_score = $9, homonym_score = $10, result = $11::json, updated_at = $6, finished_at = COALESCE($12, finished_at) WHERE id = $2
  ), runs AS (
    ${insertRunsSql('$13')}
  ), evt AS (
    ${outbox.insertSql('$14')}
  ), done AS (
    ${jobs.completeSql('$15', '$16')}
  )
  SELECT 1`;

/**
 * Starts checks (StartItem, $1; their ids $2), each only if still not_started, with its databases
 * and of the started ones only: the collector runs ($7), the finished events ($3), the collect
 * and timer jobs ($4, by check_id). Completes the start jobs ($5 ids, $6 attempts), started or not.
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
  )
  SELECT s.i, c.id IS NOT NULL AS started FROM s LEFT JOIN c ON c.id = s.id ORDER BY s.i`;
