import { JsonLogicSqlError } from './sql-translation.error';
import {
  NamedParams,
  NamedSqlFragment,
  parseJsonRule,
  PositionalParams,
  SqlFieldMap,
  SqlFragment,
  translateAll,
} from './to-sql';

export interface AccessRulesOptions {
  /**
   * Called for a rule that does not translate (e.g. it names a field the map no longer has);
   * the rule then denies every record (FALSE), so a broken rule never widens access.
   */
  onRefused?: (error: JsonLogicSqlError, rule: unknown) => void;
}

/**
 * The WHERE condition a caller's role access rules impose: every rule must hold (AND). No rules
 * is `TRUE`. Rules are the JSON-Logic expressions of the role (`Caller.accessRules`, objects or
 * their JSON text); `fields` whitelists what they may read. Use it next to the tenant filter of
 * every read of the restricted records (list, get by id, details), e.g. with TypeORM:
 *
 * ```ts
 * const where = accessRulesWhere(caller.accessRules, {
 *   country: 'c.country', type: 'c.type', status: 'c.status',
 *   score: { sql: 'c.score', type: 'number' },
 *   national_id: `c.inputs->>'national_id'`,
 * }, { namedPrefix: 'ar' });
 * qb.andWhere(where.sql, where.params);
 * ```
 */
export function accessRulesWhere(
  rules: readonly unknown[] | undefined,
  fields: SqlFieldMap,
  options?: PositionalParams & AccessRulesOptions,
): SqlFragment;
export function accessRulesWhere(
  rules: readonly unknown[] | undefined,
  fields: SqlFieldMap,
  options: NamedParams & AccessRulesOptions,
): NamedSqlFragment;
export function accessRulesWhere(
  rules: readonly unknown[] | undefined,
  fields: SqlFieldMap,
  options?: (PositionalParams | NamedParams) & AccessRulesOptions,
): SqlFragment | NamedSqlFragment {
  const deny = options?.onRefused ?? (() => undefined);
  const parsed = (rules ?? []).map((rule) => {
    if (typeof rule !== 'string') return rule;
    try {
      return parseJsonRule(rule);
    } catch (err) {
      deny(err as JsonLogicSqlError, rule);
      return false;
    }
  });
  return translateAll(parsed, fields, options, 'where', deny);
}
