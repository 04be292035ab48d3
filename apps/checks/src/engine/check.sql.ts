import type { OutboxService } from '@kyc/platform';

/**
 * The statements of CheckStore (a check's creation and its reads by the API), run by CheckStore
 * only. Values are always bound parameters; the outbox part is the platform's own
 * fragment (OutboxService.insertSql).
 */

/**
 * Stores a group of checks (the JSON recordset $1) and their created events ($3), each check
 * waiting to start (status not_started, self_start: the engine's start claims it from
 * checks_start_due_idx, CheckRunStore.startSource; no start job);
 * per check: created, an existing recent one with its inputs ($2 seconds), or unknown custom type.
 * It also copies the custom type's weights and the tenant's settings onto the check. Planned per
 * call, never as a prepared statement: the de-duplication lookup's best index depends on the
 * table's size, and a plan cached while checks was nearly empty scanned every recent check of the
 * tenant for each new one.
 */
export const createSql = (outbox: OutboxService) => `WITH r AS (
     SELECT r.*, ct.weights AS custom_weights, (r.built_in OR ct.weights IS NOT NULL) AS known
       FROM jsonb_to_recordset($1::jsonb) AS r(i int, id text, tenant_id text, country text, type text, inputs jsonb, input_hash text, force boolean, built_in boolean,
                                                custom_input text, report_id text, user_authorized boolean, created_by text, created_at timestamptz, region text,
                                                previous_check text, rule_depth int, requested_by_execution text,
                                                correlation_id text, trace_context jsonb)
       LEFT JOIN custom_types ct ON NOT r.built_in AND ct.tenant_id = r.tenant_id AND ct.country = r.country AND ct.type = r.type
   ), d AS (
     SELECT r.*, (SELECT (array_agg(c.id ORDER BY c.created_at DESC))[1] FROM checks c
                   WHERE c.tenant_id = r.tenant_id AND c.input_hash = r.input_hash AND NOT r.force AND c.status <> 'error'
                     AND c.created_at > r.created_at - ($2 * interval '1 second')) AS recent_id
       FROM r WHERE r.known
   ), ins AS (
     INSERT INTO checks (id, tenant_id, country, type, status, inputs, input_hash, custom_input, report_id, user_authorized, created_by, created_at, updated_at,
                         region, previous_check, weights, settings, rule_depth, requested_by_execution, self_start, correlation_id, trace_context)
     SELECT d.id, d.tenant_id, d.country, d.type, 'not_started', d.inputs, d.input_hash, d.custom_input, d.report_id, d.user_authorized, d.created_by, d.created_at, d.created_at,
            d.region, d.previous_check, d.custom_weights,
            (SELECT jsonb_build_object('max_duration_minutes', s.max_duration_minutes, 'retries', s.retries, 'names_matching_type', s.names_matching_type)
               FROM check_settings s WHERE s.tenant_id = d.tenant_id),
            d.rule_depth, d.requested_by_execution, true, d.correlation_id, d.trace_context
       FROM d WHERE d.recent_id IS NULL
     RETURNING id
   ), evt AS (
     ${outbox.insertSql('$3', 'e.message_key IN (SELECT id FROM ins)')}
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
