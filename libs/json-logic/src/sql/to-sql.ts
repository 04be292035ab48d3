import { JsonLogicSqlError } from './sql-translation.error';
import type {
  NamedParams,
  NamedSqlFragment,
  Placeholder,
  PositionalParams,
  SqlFieldMap,
  SqlFieldType,
  SqlFragment,
} from './sql-values';
import { TOKEN } from './sql-values';
import { Translator } from './translator';

export type {
  NamedParams,
  NamedSqlFragment,
  PositionalParams,
  SqlField,
  SqlFieldMap,
  SqlFieldType,
  SqlFragment,
} from './sql-values';
export { SQL_SUPPORTED_OPERATORS } from './translator';

/**
 * JSON-Logic → PostgreSQL translation.
 *
 * The record a rule reads is modelled as a JSON object whose keys are the whitelisted fields:
 * `{"var": "<field>"}` is the field's SQL expression, a field whose SQL value is NULL is absent
 * (so `var`'s default applies, otherwise it is null). Every operator reproduces json-logic-js
 * 2.0.5 exactly, including JavaScript's loose equality, ordering and truthiness; where that would
 * need a coercion PostgreSQL cannot reproduce exactly for data only known at run time (text ↔
 * number conversion of a field, a list or object turned into text), the rule is refused at
 * translation time with a JsonLogicSqlError instead of being translated approximately.
 *
 * Supported: `==`, `===`, `!=`, `!==`, `<`, `<=` (2 or 3 arguments), `>`, `>=`, `!`, `!!`, `and`,
 * `or`, `in` (value in a list; substring of a string), `var` (whitelisted names, optional
 * default), `missing`, and literals (strings, finite numbers, booleans, null, lists).
 */

const MAX_SQL_LENGTH = 200_000;

function placeholders(options: PositionalParams | NamedParams | undefined): Placeholder {
  if (options && 'namedPrefix' in options) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(options.namedPrefix)) throw new Error('namedPrefix must be an identifier');
    return (i) => `:${options.namedPrefix}${i}`;
  }
  const first = options?.firstParam ?? 1;
  return (i) => `$${first + i}`;
}

function translate(
  rule: unknown,
  fields: SqlFieldMap,
  options: PositionalParams | NamedParams | undefined,
  mode: 'where' | 'value',
) {
  return translateAll([rule], fields, options, mode);
}

/**
 * @internal Translates rules that must all hold (joined with AND) with one parameter list. A rule that
 * does not translate throws, unless `onRefused` is given: then that rule becomes FALSE.
 */
export function translateAll(
  rules: readonly unknown[],
  fields: SqlFieldMap,
  options: PositionalParams | NamedParams | undefined,
  mode: 'where' | 'value',
  onRefused?: (error: JsonLogicSqlError, rule: unknown) => void,
): SqlFragment | NamedSqlFragment {
  const translator = new Translator(fields);
  const parts = rules.map((rule) => {
    try {
      const val = translator.compile(rule, '', 0);
      const sql = mode === 'where' ? val.truthy() : val.json();
      if (sql.length > MAX_SQL_LENGTH) throw new JsonLogicSqlError('rule too complex to translate');
      return sql;
    } catch (err) {
      if (!(err instanceof JsonLogicSqlError) || !onRefused) throw err;
      onRefused(err, rule);
      return 'FALSE';
    }
  });
  const joined = parts.length === 0 ? 'TRUE' : parts.length === 1 ? parts[0] : `(${parts.join(' AND ')})`;
  // Number the parameters the SQL uses, in order of first use (values computed but not used are dropped).
  const placeholder = placeholders(options);
  const used = new Map<number, number>();
  const values: unknown[] = [];
  const sql = joined.replace(TOKEN, (_, index: string) => {
    let n = used.get(Number(index));
    if (n === undefined) {
      n = values.push(translator.params[Number(index)]) - 1;
      used.set(Number(index), n);
    }
    return placeholder(n);
  });
  if (options && 'namedPrefix' in options)
    return { sql, params: Object.fromEntries(values.map((p, i) => [`${options.namedPrefix}${i}`, p])) };
  return { sql, params: values };
}

/**
 * Translates a JSON-Logic rule into a parameterized SQL condition that holds exactly where
 * json-logic-js would find the rule truthy for the record. Throws JsonLogicSqlError for rules it
 * does not translate.
 *
 * @example toSql({ '==': [{ var: 'country' }, 'CO'] }, { country: 'c.country' })
 *   // { sql: '(CASE WHEN (CAST((c.country) AS text) IS NOT NULL) THEN (CAST((c.country) AS text) = CAST($1 AS text)) ELSE FALSE END)', params: ['CO'] }
 */
export function toSql(rule: unknown, fields: SqlFieldMap, options?: PositionalParams): SqlFragment;
export function toSql(rule: unknown, fields: SqlFieldMap, options: NamedParams): NamedSqlFragment;
export function toSql(
  rule: unknown,
  fields: SqlFieldMap,
  options?: PositionalParams | NamedParams,
): SqlFragment | NamedSqlFragment {
  return translate(rule, fields, options, 'where');
}

/** The value json-logic-js's `apply` would return, as a jsonb SQL expression (never NULL). */
export function toSqlValue(rule: unknown, fields: SqlFieldMap, options?: PositionalParams): SqlFragment {
  return translate(rule, fields, options, 'value') as SqlFragment;
}

/** Throws JsonLogicSqlError unless the rule translates over fields of these types (used to validate rules on save). */
export function assertSqlTranslatable(rule: unknown, fieldTypes: Readonly<Record<string, SqlFieldType>>): void {
  const fields = Object.fromEntries(
    Object.entries(fieldTypes).map(([name, type], i) => [name, { sql: `f${i}`, type }]),
  );
  translate(rule, fields, undefined, 'where');
}

/** Parses the JSON text of a rule; invalid JSON is a JsonLogicSqlError. */
export function parseJsonRule(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new JsonLogicSqlError(`not valid JSON (${(err as Error).message})`);
  }
}
