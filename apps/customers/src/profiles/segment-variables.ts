import { isOperator, JsonLogicIssue, SqlField, SqlFieldMap, validate } from '@kyc/json-logic';

export interface SegmentVariable {
  /** SQL over `p` (profiles) and `prm` (the compute's parameters: `prm.since`, 30 days before the compute). */
  sql: string;
  type: SqlField['type'];
}

const text = (column: string): SegmentVariable => ({ sql: `p.${column}`, type: 'string' });
const num = (sql: string): SegmentVariable => ({ sql, type: 'number' });
const day = (column: string): SegmentVariable => ({
  sql: `to_char(p.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  type: 'string',
});
const windowCount = (condition: string): SegmentVariable =>
  num(
    `(SELECT count(*)::int FROM transactions t WHERE t.profile_id = p.id AND ${condition} AND t.occurred_at >= prm.since)`,
  );

/**
 * What a segment rule (and a customers query) may read: `{"var": "<name>"}` of a profile attribute
 * or a decision variable. Each has one SQL expression: the push-down translation reads it in the
 * WHERE, and the Node fallback selects the same expressions to build each profile's record, so
 * both evaluate the rule on identical data. A NULL value is an absent variable (var's default applies).
 */
export const SEGMENT_VARIABLES: Readonly<Record<string, SegmentVariable>> = {
  customer_id: text('id'),
  name: text('name'),
  first_name: text('first_name'),
  last_name: text('last_name'),
  country: text('country'),
  phone_number: text('phone_number'),
  email: text('email'),
  document_number: text('document_number'),
  document_type: text('document_type'),
  birthday: text('birthday'),
  document_issue_date: text('document_issue_date'),
  gender: text('gender'),
  tags: { sql: 'p.tags_json', type: 'json' },
  transactions_count: num('p.transactions_count'),
  checks_count: num('p.checks_count'),
  latest_check_score: num('p.latest_check_score'),
  latest_check_status: text('latest_check_status'),
  validations_count: num('p.validations_count'),
  failed_validations_count: num('p.failed_validations_count'),
  latest_validation_status: text('latest_validation_status'),
  processes_count: num('p.processes_count'),
  latest_process_status: text('latest_process_status'),
  chats_count: num('p.chats_count'),
  first_transaction_date: day('first_transaction_at'),
  last_transaction_date: day('last_transaction_at'),
  checks_30d: windowCount(`t.product = 'check'`),
  failed_validations_30d: windowCount(`t.product = 'validation' AND t.status = 'failure'`),
};

export const SEGMENT_FIELD_MAP: SqlFieldMap = SEGMENT_VARIABLES;

/**
 * Validates a rule on write: JSON-Logic this project evaluates (known operators, their argument
 * counts, bounded size), and every variable it reads (`var`, `missing`, `missing_some`) one of
 * SEGMENT_VARIABLES. Each problem carries its path in the rule (e.g. `and[1].==[0].var`).
 */
export function segmentRuleIssues(rule: unknown): JsonLogicIssue[] {
  if (rule === undefined) return [{ path: '', message: 'is required' }];
  const result = validate(rule, { maxDepth: 32, maxNodes: 2_000 });
  if (!result.valid) return result.errors;
  const issues: JsonLogicIssue[] = [];
  const name = (v: unknown, path: string) => {
    if (typeof v !== 'string') {
      issues.push({ path, message: 'must be the name of a variable (a string)' });
      return;
    }
    if (!Object.prototype.hasOwnProperty.call(SEGMENT_VARIABLES, v))
      issues.push({ path, message: `unknown variable ${JSON.stringify(v)}` });
  };
  const visit = (node: unknown, path: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${path}[${i}]`));
    if (!node || typeof node !== 'object') return;
    const [op] = Object.keys(node);
    if (!isOperator(op)) return;
    const here = path ? `${path}.${op}` : op;
    const raw = (node as Record<string, unknown>)[op];
    const args = Array.isArray(raw) ? raw : [raw];
    if (op === 'var') name(args[0], `${here}[0]`);
    else if (op === 'missing') {
      const keys = Array.isArray(args[0]) ? args[0] : args;
      keys.forEach((k, i) => name(k, Array.isArray(args[0]) ? `${here}[0][${i}]` : `${here}[${i}]`));
    } else if (op === 'missing_some' && Array.isArray(args[1])) args[1].forEach((k, i) => name(k, `${here}[1][${i}]`));
    // Inside map/filter/all/none/some/reduce, vars read the current element, not the profile.
    if (['map', 'filter', 'all', 'none', 'some', 'reduce'].includes(op)) return visit(args[0], `${here}[0]`);
    args.forEach((a, i) => visit(a, `${here}[${i}]`));
  };
  visit(rule, '');
  return issues;
}
