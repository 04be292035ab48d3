/** Commands and events of the business-rules engine (account service). */
export const RULE_EVENT_TYPES = {
  checkRequested: 'account.check.requested',
} as const;

/** The event types a rule can fire on. */
export const RULE_EVENT_TYPE_NAMES = ['checks.check.finished'] as const;
export type RuleEventType = (typeof RULE_EVENT_TYPE_NAMES)[number];

/**
 * `account.check.requested`: a create_check action asks the checks service to create a check
 * for the tenant (a trusted internal command; no API key involved). The checks service creates
 * it through its normal creation rules, idempotently per event id, and carries `depth` and
 * `execution_id` into the check record (`rule_depth`, `requested_by_execution`) so they come
 * back in its `checks.check.created` / `checks.check.finished` events.
 */
export interface CheckRequestedPayload {
  tenant_id: string;
  /** The user who owns the rule (its last editor), or `rules-engine`. */
  requested_by: string;
  rule_id: string;
  rule_version: number;
  action_id: string;
  execution_id: string;
  /** The event (a `checks.check.finished` envelope id) that fired the rule. */
  source_event_id: string;
  /** The check whose result fired the rule. */
  source_check_id: string;
  /** rule_depth of the new check: the source check's depth + 1. */
  depth: number;
  /** Check type (person, vehicle, company or a custom type name). */
  type: string;
  country: string;
  /** Wire-named check inputs (national_id, first_name, custom_input, …), rendered from the action's mapping. */
  inputs: Record<string, string>;
  /** The person authorized the check that fired the rule; that authorization covers the new check. */
  user_authorized: true;
}
