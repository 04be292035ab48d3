import { JsonLogicSqlError } from './sql-translation.error';

/** The JSON type a field holds: `string`, `number` and `boolean` are scalar columns, `json` a jsonb expression. */
export type SqlFieldType = 'string' | 'number' | 'boolean' | 'json';

export interface SqlField {
  /** An SQL expression over the query's own tables (e.g. `c.country`), written by the developer, without parameters. */
  sql: string;
  type: SqlFieldType;
}

/** Whitelist of the fields rules may read: var name → SQL expression (a plain string is a text field). */
export type SqlFieldMap = Readonly<Record<string, string | SqlField>>;

export interface PositionalParams {
  /** Number of the first `$n` placeholder, so the fragment can follow the query's own parameters (default 1). */
  firstParam?: number;
}

export interface NamedParams {
  /** Use `:<prefix><n>` placeholders (TypeORM query builders) instead of `$n`. */
  namedPrefix: string;
}

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

export interface NamedSqlFragment {
  sql: string;
  params: Record<string, unknown>;
}

export type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
export const ALL_KINDS: readonly Kind[] = ['null', 'boolean', 'number', 'string', 'array', 'object'];
export const isComposite = (k: Kind) => k === 'array' || k === 'object';

export const FLOAT = 'double precision';
export const JSON_NULL = `CAST('null' AS jsonb)`;
export const JSON_EMPTY_ARRAY = `CAST('[]' AS jsonb)`;
/** Characters outside the Basic Multilingual Plane: where code-point order and JavaScript's UTF-16 order differ. */
export const SUPPLEMENTARY = `E'[\\\\U00010000-\\\\U0010FFFF]'`;
export const hasSupplementary = (s: string) => /[\u{10000}-\u{10FFFF}]/u.test(s);

/** A translated sub-expression: which JSON kinds it may take at run time and SQL to read it. */
export interface Val {
  kinds: readonly Kind[];
  /** jsonb, never SQL NULL. */
  json(): string;
  /** Boolean SQL: the run-time kind is `kind` (only asked when several kinds are possible). */
  is(kind: Kind): string;
  /** SQL reading the value as text / double precision / boolean, valid where the kind is string / number / boolean. */
  text(): string;
  num(): string;
  bool(): string;
  /** JSON-Logic truthiness as boolean SQL, never NULL. */
  truthy(): string;
  /** Present when the value is a compile-time constant. */
  lit?: { value: unknown };
  /** Identity of a list or object read from a field (JavaScript compares those by reference). */
  ref?: string;
  /** The elements of a list written in the rule. */
  elements?: Val[];
}

export interface Prim {
  kind: 'null' | 'boolean' | 'number' | 'string';
  sql: string;
  lit?: { value: unknown };
}

export type Placeholder = (index: number) => string;

/** Parameters are written as NUL-delimited tokens while translating (NUL cannot occur in SQL text), then numbered in order of use. */
export const token = (index: number) => `\u0000${index}\u0000`;
// eslint-disable-next-line no-control-regex -- NUL is the token delimiter, chosen because SQL text cannot hold it
export const TOKEN = /\u0000(\d+)\u0000/g;

export function defaultTruthy(v: Val): string {
  return byKind(v, (k) => {
    switch (k) {
      case 'null':
        return 'FALSE';
      case 'boolean':
        return v.bool();
      case 'number':
        return `(${v.num()} <> 0)`;
      case 'string':
        return `(${v.text()} <> '')`;
      case 'array':
        return `(jsonb_array_length(${v.json()}) > 0)`;
      case 'object':
        return 'TRUE';
    }
  });
}

/** One SQL expression choosing, by the value's run-time kind, among the arms for its possible kinds. */
export function byKind(v: Val, arm: (kind: Kind) => string): string {
  if (v.kinds.length === 1) return arm(v.kinds[0]);
  const groups = new Map<string, Kind[]>();
  for (const k of v.kinds) {
    const sql = arm(k);
    groups.set(sql, [...(groups.get(sql) ?? []), k]);
  }
  if (groups.size === 1) return [...groups.keys()][0];
  const entries = [...groups.entries()].sort((x, y) => y[1].length - x[1].length);
  const [otherwise] = entries[0];
  const whens = entries
    .slice(1)
    .map(([sql, kinds]) => `WHEN ${kinds.map((k) => v.is(k)).join(' OR ')} THEN ${sql}`)
    .join(' ');
  return `(CASE ${whens} ELSE ${otherwise} END)`;
}

export function compareNumbers(a: string | null, op: string, b: string | null): string {
  if (a === null || b === null) return 'FALSE';
  return `(${a} ${op} ${b})`;
}

export function union(a: readonly Kind[], b: readonly Kind[]): Kind[] {
  return ALL_KINDS.filter((k) => a.includes(k) || b.includes(k));
}

export function unreachable(): never {
  throw new Error('json-logic sql: accessor of a kind the value cannot take');
}

/** PostgreSQL text cannot hold NUL or unpaired surrogates. */
export function checkString(s: string, path: string) {
  // eslint-disable-next-line no-control-regex -- NUL is exactly what this refuses
  if (/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s)) {
    throw new JsonLogicSqlError('strings cannot contain NUL characters or unpaired surrogates', path);
  }
}
