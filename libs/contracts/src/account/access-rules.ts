/**
 * The fields of a check that role access rules (JSON-Logic) may read, with their JSON type.
 * Account validates rules against this list when a role is saved; the checks service maps each
 * name to an SQL expression over its checks table when it filters reads by the caller's rules
 * (`accessRulesWhere` of @kyc/json-logic). Names are the wire names of the check record.
 */
export type AccessRuleFieldType = 'string' | 'number' | 'boolean';

export const CHECK_ACCESS_RULE_FIELDS: Readonly<Record<string, AccessRuleFieldType>> = Object.freeze({
  check_id: 'string',
  country: 'string',
  type: 'string',
  status: 'string',
  score: 'number',
  id_score: 'number',
  homonym_score: 'number',
  custom_input: 'string',
  report_id: 'string',
  user_authorized: 'boolean',
  /** User id of the creator of the check. */
  created_by: 'string',
  /** ISO 8601 in UTC with milliseconds, as in responses (e.g. 2025-01-31T12:00:00.000Z). */
  creation_date: 'string',
  national_id: 'string',
  first_name: 'string',
  last_name: 'string',
  license_plate: 'string',
  tax_id: 'string',
  company_name: 'string',
});

/** At most this many access rules per role, each at most this many characters of JSON. */
export const MAX_ACCESS_RULES = 20;
export const MAX_ACCESS_RULE_LENGTH = 4000;
