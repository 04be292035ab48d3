// The SQL of RuleSetStore (bre_tenant_state; reads of bre_rules and bre_actions).

/** Bumps tenant $1's rules-state counter. */
export const BUMP_STATE = `
  INSERT INTO bre_tenant_state (tenant_id, rules_version) VALUES ($1, 1)
  ON CONFLICT (tenant_id) DO UPDATE SET rules_version = bre_tenant_state.rules_version + 1`;

export const STATE = `SELECT rules_version FROM bre_tenant_state WHERE tenant_id = $1`;

/** Tenant $1's rules with their enabled actions, in creation order. */
export const ENABLED_RULES = `
  SELECT r.id AS rule_id, r.version, r.event_type, r.condition, a.id AS action_id, a.type AS action_type, a.config->>'max_attempts' AS max_attempts
    FROM bre_rules r JOIN bre_actions a ON a.rule_id = r.id AND a.tenant_id = r.tenant_id AND a.status = 'enabled'
   WHERE r.tenant_id = $1
   ORDER BY r.created_at, r.id, a.created_at, a.id`;
