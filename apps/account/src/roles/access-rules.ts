import { CHECK_ACCESS_RULE_FIELDS, MAX_ACCESS_RULE_LENGTH } from '@kyc/contracts';
import { assertSqlTranslatable, JsonLogicSqlError, parseJsonRule } from '@kyc/json-logic';

/**
 * A role access rule as sent: the JSON text of a JSON-Logic expression (form field), or the
 * expression itself (JSON body). It is accepted when it is valid JSON, uses only the operators
 * the SQL translation supports, reads only the check fields rules may read, and translates to
 * SQL (so the checks service can enforce it in its queries).
 */
export function parseAccessRule(value: unknown): { rule: unknown } | { error: string } {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return { error: 'not a JSON-Logic expression' };
  }
  if (text === undefined) return { error: 'not a JSON-Logic expression' };
  if (text.length > MAX_ACCESS_RULE_LENGTH) return { error: `longer than ${MAX_ACCESS_RULE_LENGTH} characters` };
  try {
    const rule = typeof value === 'string' ? parseJsonRule(value) : value;
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule))
      return { error: 'must be a JSON-Logic operation such as {"==":[{"var":"country"},"CO"]}' };
    assertSqlTranslatable(rule, CHECK_ACCESS_RULE_FIELDS);
    return { rule };
  } catch (err) {
    if (err instanceof JsonLogicSqlError) return { error: err.message };
    throw err;
  }
}

/** The parsed rules of a validated list. */
export const parseAccessRules = (values: readonly unknown[]): object[] =>
  values.map((v) => {
    const parsed = parseAccessRule(v);
    if ('error' in parsed) throw new Error(`access rule not validated: ${parsed.error}`);
    return parsed.rule as object;
  });
