import { readFileSync } from 'node:fs';
import path from 'node:path';

import { db } from '@kyc/testing';
import jsonLogic from 'json-logic-js';

import { JsonLogicSqlError } from '../../src/sql/sql-translation.error';
import { SQL_SUPPORTED_OPERATORS, SqlField, SqlFieldMap, toSql, toSqlValue } from '../../src/sql/to-sql';

/**
 * The JSON-Logic → SQL translation against real PostgreSQL: every case of the official suite
 * whose operators the translation supports gives, in SQL, the value json-logic-js returns and the
 * suite expects (and its truthiness as a WHERE condition); cases with other operators are refused.
 * A seeded random differential test then compares thousands of generated rules over typed and
 * JSON fields with json-logic-js: a rule is either refused or translated exactly.
 */
type Case = [rule: unknown, data: unknown, expected: unknown];

export const suite: unknown[] = JSON.parse(
  readFileSync(path.join(__dirname, '../../src/compiler/fixtures/jsonlogic-tests.json'), 'utf8'),
);
export const cases = suite.filter((c): c is Case => Array.isArray(c));
export const supported = new Set<string>(SQL_SUPPORTED_OPERATORS);

/** Every operator a rule uses, at any depth. */
export function operators(rule: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(rule)) rule.forEach((r) => operators(r, out));
  else if (rule && typeof rule === 'object' && Object.keys(rule).length === 1) {
    const [op] = Object.keys(rule);
    out.add(op);
    operators((rule as Record<string, unknown>)[op], out);
  }
  return out;
}

/** The field names a rule reads (var names and missing keys), as the translation looks them up. */
export function fieldNames(rule: unknown, out = new Set<string>()): Set<string> {
  const name = (v: unknown) =>
    v === undefined || v === null || v === '' ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  if (Array.isArray(rule)) rule.forEach((r) => fieldNames(r, out));
  else if (rule && typeof rule === 'object' && Object.keys(rule).length === 1) {
    const [op] = Object.keys(rule);
    const raw = (rule as Record<string, unknown>)[op];
    const args = Array.isArray(raw) ? raw : [raw];
    if (op === 'var' && (args[0] === undefined || ['string', 'number'].includes(typeof args[0]) || args[0] === null))
      out.add(name(args[0]));
    if (op === 'missing')
      (Array.isArray(args[0]) ? args[0] : args).forEach(
        (k) => ['string', 'number'].includes(typeof k) && out.add(name(k)),
      );
    fieldNames(args, out);
  }
  return out;
}

export const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * The data of a case as the record the rule reads: each field is the value json-logic-js's var
 * reaches (a path into the JSON document `doc`). `typed`: scalar values become typed columns
 * (text, double precision, boolean), as the fields of a real table would be; other values (lists,
 * objects, null, absent) stay jsonb. Untyped: every field is jsonb.
 */
export function fieldMap(rule: unknown, data: unknown, doc: string, typed: boolean): SqlFieldMap {
  const fields: Record<string, SqlField> = {};
  for (const name of fieldNames(rule)) {
    const segments = name === '' ? [] : name.split('.');
    const pathSql = `CAST(ARRAY[${segments.map(sqlString).join(', ')}] AS text[])`;
    const value = jsonLogic.apply({ var: name }, data);
    const kind = typeof value;
    if (typed && value !== null && (kind === 'string' || kind === 'number' || kind === 'boolean')) {
      fields[name] = { sql: `(${doc} #>> ${pathSql})`, type: kind };
    } else {
      fields[name] = { sql: `(${doc} #> ${pathSql})`, type: 'json' };
    }
  }
  return fields;
}

export const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export async function evaluate(
  rule: unknown,
  data: unknown,
  typed: boolean,
): Promise<{ value: unknown; where: boolean } | JsonLogicSqlError> {
  const fields = fieldMap(rule, data, 'd.doc', typed);
  let value: ReturnType<typeof toSqlValue>;
  let where: ReturnType<typeof toSqlValue>;
  try {
    value = toSqlValue(rule, fields, { firstParam: 2 });
    where = toSql(rule, fields, { firstParam: 2 + value.params.length });
  } catch (err) {
    if (err instanceof JsonLogicSqlError) return err;
    throw err;
  }
  const { rows } = await db().query(
    `SELECT ${value.sql} AS value, ${where.sql} AS where_ok FROM (SELECT CAST($1 AS jsonb) AS doc) AS d`,
    [JSON.stringify(data), ...value.params, ...where.params],
  );
  return { value: rows[0].value, where: rows[0].where_ok };
}
