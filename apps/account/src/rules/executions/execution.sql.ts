// The SQL of ExecutionStore (table bre_executions).

/**
 * Claims the execution for this attempt and reads what the run needs (the action, the event, the
 * env vars, the signing secrets) in one statement ($1 execution id, $2 tenant, $3 attempt): a run costs this query, the call out, and the
 * record of its outcome.
 */
export const CLAIM_RUN = `
  WITH claimed AS (
    UPDATE bre_executions SET outcome = 'running', attempts = $3, started_at = coalesce(started_at, now()), updated_at = now()
     WHERE id = $1 AND tenant_id = $2 AND outcome IN ('pending', 'running', 'retrying')
    RETURNING *)
  SELECT c.*,
         a.id AS a_id, a.rule_id AS a_rule_id, a.name AS a_name, a.type AS a_type, a.status AS a_status, a.config AS a_config, a.created_at AS a_created_at, a.updated_at AS a_updated_at,
         f.tenant_id AS f_tenant_id, f.payload AS f_payload,
         (SELECT coalesce(json_agg(json_build_object('name', v.name, 'is_secret', v.is_secret, 'value', v.value, 'sealed_value', v.sealed_value)), '[]'::json)
            FROM bre_action_envs v WHERE v.action_id = c.action_id AND v.tenant_id = c.tenant_id) AS envs,
         s.sealed_secret, s.sealed_previous_secret, s.previous_valid_until
    FROM claimed c
    LEFT JOIN bre_actions a ON a.id = c.action_id AND a.tenant_id = c.tenant_id
    LEFT JOIN finished_checks f ON f.event_id = c.event_id AND f.tenant_id = c.tenant_id
    LEFT JOIN bre_signing_secrets s ON s.tenant_id = c.tenant_id`;

/** Records the check a create_check execution led to ($3), once. */
export const LINK_CREATED_CHECK = `
  UPDATE bre_executions SET created_check_id = $3, updated_at = now()
   WHERE id = $1 AND tenant_id = $2 AND created_check_id IS DISTINCT FROM $3`;

/** Records an attempt's outcome ($3); 'retrying' leaves the execution open. */
export const SETTLE = `
  UPDATE bre_executions SET outcome = $3, response_status = coalesce($4, response_status), error = $5, updated_at = now(),
         finished_at = CASE WHEN $3 = 'retrying' THEN NULL ELSE now() END
   WHERE id = $1 AND tenant_id = $2`;
