import { JsonLogicSqlError } from './sql-translation.error';

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

export const SQL_SUPPORTED_OPERATORS = [
  '==',
  '===',
  '!=',
  '!==',
  '<',
  '<=',
  '>',
  '>=',
  '!',
  '!!',
  'and',
  'or',
  'in',
  'var',
  'missing',
] as const;

/** Standard JSON-Logic operators this translation does not support (refused with a clear message). */
const UNSUPPORTED_OPERATORS = new Set([
  'if',
  '?:',
  'cat',
  'substr',
  '+',
  '-',
  '*',
  '/',
  '%',
  'min',
  'max',
  'merge',
  'map',
  'filter',
  'reduce',
  'all',
  'none',
  'some',
  'missing_some',
  'log',
]);

const MAX_DEPTH = 48;
const MAX_SQL_LENGTH = 200_000;

type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
const ALL_KINDS: readonly Kind[] = ['null', 'boolean', 'number', 'string', 'array', 'object'];
const isComposite = (k: Kind) => k === 'array' || k === 'object';

const FLOAT = 'double precision';
const JSON_NULL = `CAST('null' AS jsonb)`;
const JSON_EMPTY_ARRAY = `CAST('[]' AS jsonb)`;
/** Characters outside the Basic Multilingual Plane: where code-point order and JavaScript's UTF-16 order differ. */
const SUPPLEMENTARY = `E'[\\\\U00010000-\\\\U0010FFFF]'`;
const hasSupplementary = (s: string) => /[\u{10000}-\u{10FFFF}]/u.test(s);

/** A translated sub-expression: which JSON kinds it may take at run time and SQL to read it. */
interface Val {
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

interface Prim {
  kind: 'null' | 'boolean' | 'number' | 'string';
  sql: string;
  lit?: { value: unknown };
}

type Placeholder = (index: number) => string;

/** Parameters are written as NUL-delimited tokens while translating (NUL cannot occur in SQL text), then numbered in order of use. */
const token = (index: number) => `\u0000${index}\u0000`;
// eslint-disable-next-line no-control-regex -- NUL is the token delimiter, chosen because SQL text cannot hold it
const TOKEN = /\u0000(\d+)\u0000/g;

class Translator {
  readonly params: unknown[] = [];
  private aliases = 0;
  private readonly fields: Map<string, SqlField>;

  constructor(fields: SqlFieldMap) {
    this.fields = new Map(
      Object.entries(fields).map(([name, f]) => [name, typeof f === 'string' ? { sql: f, type: 'string' } : f]),
    );
  }

  // ---------- literals and parameters ----------

  private param(value: unknown, type: 'text' | 'jsonb' | typeof FLOAT): string {
    this.params.push(value);
    return `CAST(${token(this.params.length - 1)} AS ${type})`;
  }

  private number(n: number): string {
    return this.param(String(n), FLOAT);
  }

  private literal(value: unknown, path: string): Val {
    if (value === null) return this.constant(null, 'null', {});
    switch (typeof value) {
      case 'boolean':
        return this.constant(value, 'boolean', { bool: value ? 'TRUE' : 'FALSE' });
      case 'number': {
        if (!Number.isFinite(value)) throw new JsonLogicSqlError('numbers must be finite', path);
        const num = this.number(value);
        return this.constant(value, 'number', { num, truthy: `(${num} <> 0)` });
      }
      case 'string': {
        checkString(value, path);
        const text = this.param(value, 'text');
        return this.constant(value, 'string', { text, truthy: `(${text} <> '')` });
      }
    }
    throw new JsonLogicSqlError(`unsupported value ${JSON.stringify(value)}`, path);
  }

  private constant(
    value: unknown,
    kind: Kind,
    sql: { text?: string; num?: string; bool?: string; truthy?: string },
  ): Val {
    let json: string | undefined;
    return {
      kinds: [kind],
      lit: { value },
      json: () => (json ??= kind === 'null' ? JSON_NULL : this.param(JSON.stringify(value), 'jsonb')),
      is: (k) => (k === kind ? 'TRUE' : 'FALSE'),
      text: () => sql.text ?? unreachable(),
      num: () => sql.num ?? unreachable(),
      bool: () => sql.bool ?? unreachable(),
      truthy: () => sql.truthy ?? (kind === 'null' ? 'FALSE' : (sql.bool ?? unreachable())),
    };
  }

  /** A jsonb expression (never NULL) of the given possible kinds. */
  private jsonVal(sql: string, kinds: readonly Kind[], extra: Partial<Pick<Val, 'ref' | 'truthy'>> = {}): Val {
    const val: Val = {
      kinds,
      json: () => sql,
      is: (k) => `(jsonb_typeof(${sql}) = '${k}')`,
      text: () => `(${sql} #>> '{}')`,
      num: () => `CAST(${sql} AS ${FLOAT})`,
      bool: () => `CAST(${sql} AS boolean)`,
      truthy: extra.truthy ?? (() => defaultTruthy(val)),
      ref: extra.ref,
    };
    return val;
  }

  private boolVal(sql: string): Val {
    return {
      kinds: ['boolean'],
      json: () => `to_jsonb(${sql})`,
      is: () => 'TRUE',
      text: unreachable,
      num: unreachable,
      bool: () => sql,
      truthy: () => sql,
    };
  }

  private arrayVal(elements: Val[]): Val {
    const lit = elements.every((e) => e.lit) ? { value: elements.map((e) => e.lit!.value) } : undefined;
    const truthy = elements.length > 0 ? 'TRUE' : 'FALSE';
    return {
      kinds: ['array'],
      lit,
      elements,
      json: () =>
        elements.length ? `jsonb_build_array(${elements.map((e) => e.json()).join(', ')})` : JSON_EMPTY_ARRAY,
      is: (k) => (k === 'array' ? 'TRUE' : 'FALSE'),
      text: unreachable,
      num: unreachable,
      bool: unreachable,
      truthy: () => truthy,
    };
  }

  // ---------- fields ----------

  private field(name: string, path: string): SqlField {
    const field = this.fields.get(name);
    if (!field) {
      const known = [...this.fields.keys()].filter((k) => k !== '');
      throw new JsonLogicSqlError(
        `unknown field "${name}"${known.length ? ` (fields: ${known.slice(0, 40).join(', ')})` : ''}`,
        path,
      );
    }
    return field;
  }

  private varVal(name: string, fallback: Val | undefined, path: string): Val {
    const field = this.field(name, path);
    if (field.type === 'json') {
      const raw = `CAST((${field.sql}) AS jsonb)`;
      if (fallback) return this.jsonVal(`COALESCE(${raw}, ${fallback.json()})`, union(ALL_KINDS, fallback.kinds));
      return this.jsonVal(`COALESCE(${raw}, ${JSON_NULL})`, ALL_KINDS, { ref: name });
    }
    const raw =
      field.type === 'string'
        ? `CAST((${field.sql}) AS text)`
        : field.type === 'number'
          ? `NULLIF(CAST((${field.sql}) AS ${FLOAT}), 'NaN')`
          : `CAST((${field.sql}) AS boolean)`;
    if (fallback)
      return this.jsonVal(`COALESCE(to_jsonb(${raw}), ${fallback.json()})`, union([field.type], fallback.kinds));
    const kind: Kind = field.type;
    const val: Val = {
      kinds: ['null', kind],
      json: () => `COALESCE(to_jsonb(${raw}), ${JSON_NULL})`,
      is: (k) => (k === 'null' ? `(${raw} IS NULL)` : k === kind ? `(${raw} IS NOT NULL)` : 'FALSE'),
      text: () => raw,
      num: () => raw,
      bool: () => raw,
      truthy: () => defaultTruthy(val),
    };
    return val;
  }

  // ---------- rules ----------

  compile(node: unknown, path: string, depth: number): Val {
    if (depth > MAX_DEPTH) throw new JsonLogicSqlError(`rule nested deeper than ${MAX_DEPTH} levels`, path);
    if (Array.isArray(node)) return this.arrayVal(node.map((e, i) => this.compile(e, `${path}[${i}]`, depth + 1)));
    if (node === null || typeof node !== 'object') return this.literal(node, path);
    const keys = Object.keys(node);
    if (keys.length !== 1)
      throw new JsonLogicSqlError(
        `an object in a rule must hold exactly one operator, found ${keys.length ? keys.map((k) => `"${k}"`).join(', ') : 'none'}`,
        path,
      );
    const op = keys[0];
    const raw = (node as Record<string, unknown>)[op];
    const args = Array.isArray(raw) ? raw : [raw];
    const at = path ? `${path}.${op}` : op;
    const arg = (i: number) => this.compile(args[i], `${at}[${i}]`, depth + 1);
    const arity = (min: number, max = min) => {
      if (args.length < min || args.length > max) {
        throw new JsonLogicSqlError(
          `"${op}" takes ${min === max ? min : `${min} or ${max}`} argument${max === 1 ? '' : 's'}, got ${args.length}`,
          at,
        );
      }
    };

    switch (op) {
      case '==':
      case '!=': {
        arity(2);
        const eq = this.looseEquals(arg(0), arg(1), at);
        return this.boolVal(op === '==' ? eq : `(NOT ${eq})`);
      }
      case '===':
      case '!==': {
        arity(2);
        const eq = this.strictEquals(arg(0), arg(1));
        return this.boolVal(op === '===' ? eq : `(NOT ${eq})`);
      }
      case '<':
      case '<=': {
        arity(2, 3);
        const [a, b] = [arg(0), arg(1)];
        const first = this.compare(a, b, op, at);
        if (args.length === 2) return this.boolVal(first);
        return this.boolVal(`(${first} AND ${this.compare(b, arg(2), op, at)})`);
      }
      case '>':
      case '>=': {
        arity(2);
        const [a, b] = [arg(0), arg(1)];
        return this.boolVal(this.compare(b, a, op === '>' ? '<' : '<=', at));
      }
      case '!':
      case '!!': {
        arity(1);
        const t = arg(0).truthy();
        return this.boolVal(op === '!' ? `(NOT ${t})` : t);
      }
      case 'and':
      case 'or': {
        if (!args.length) throw new JsonLogicSqlError(`"${op}" needs at least one argument`, at);
        return this.andOr(
          op,
          args.map((_, i) => arg(i)),
        );
      }
      case 'in': {
        arity(2);
        return this.boolVal(this.contains(arg(0), arg(1), at));
      }
      case 'var':
        return this.var(args, at, depth);
      case 'missing':
        return this.missing(args, at);
    }
    if (UNSUPPORTED_OPERATORS.has(op) || op.indexOf('.') > 0) {
      throw new JsonLogicSqlError(
        `operator "${op}" is not supported in SQL translation (supported: ${SQL_SUPPORTED_OPERATORS.join(', ')})`,
        at,
      );
    }
    throw new JsonLogicSqlError(`unknown operator "${op}"`, at);
  }

  private fieldName(value: unknown, path: string): string {
    if (value === undefined || value === null || value === '') return '';
    if (typeof value === 'string') {
      checkString(value, path);
      return value;
    }
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    throw new JsonLogicSqlError('a field name must be a literal string or number', path);
  }

  private var(args: unknown[], at: string, depth: number): Val {
    if (args.length > 2)
      throw new JsonLogicSqlError(`"var" takes a field name and an optional default, got ${args.length} arguments`, at);
    const name = this.fieldName(args[0], `${at}[0]`);
    const fallback = args.length === 2 ? this.compile(args[1], `${at}[1]`, depth + 1) : undefined;
    return this.varVal(name, fallback, at);
  }

  private missing(args: unknown[], at: string): Val {
    let keys = args;
    if (Array.isArray(args[0])) {
      if (args.length > 1)
        throw new JsonLogicSqlError('"missing" takes either field names or one list of field names', at);
      keys = args[0];
    }
    const entries = keys.map((key, i) => {
      const path = `${at}[${i}]`;
      if (typeof key !== 'string' && !(typeof key === 'number' && Number.isFinite(key)))
        throw new JsonLogicSqlError('"missing" needs literal field names', path);
      const v = this.varVal(this.fieldName(key, path), undefined, path);
      const absent = byKind(v, (k) => (k === 'null' ? 'TRUE' : k === 'string' ? `(${v.text()} = '')` : 'FALSE'));
      return { key, absent };
    });
    if (!entries.length) return this.arrayVal([]);
    const json = entries
      .map(
        (e) =>
          `(CASE WHEN ${e.absent} THEN ${this.param(JSON.stringify([e.key]), 'jsonb')} ELSE ${JSON_EMPTY_ARRAY} END)`,
      )
      .join(' || ');
    return this.jsonVal(`(${json})`, ['array'], { truthy: () => `(${entries.map((e) => e.absent).join(' OR ')})` });
  }

  /** `and` returns the first falsy value or the last; `or` the first truthy value or the last. */
  private andOr(op: 'and' | 'or', vals: Val[]): Val {
    if (vals.length === 1) return vals[0];
    const truthy = `(${vals.map((v) => v.truthy()).join(op === 'and' ? ' AND ' : ' OR ')})`;
    if (vals.every((v) => v.kinds.length === 1 && v.kinds[0] === 'boolean')) return this.boolVal(truthy);
    const arms = vals
      .slice(0, -1)
      .map((v) => `WHEN ${op === 'and' ? `NOT ${v.truthy()}` : v.truthy()} THEN ${v.json()}`)
      .join(' ');
    const kinds = vals.reduce<readonly Kind[]>((acc, v) => union(acc, v.kinds), []);
    return this.jsonVal(`(CASE ${arms} ELSE ${vals[vals.length - 1].json()} END)`, kinds, { truthy: () => truthy });
  }

  // ---------- comparisons ----------

  /** JavaScript `===`: same type and value; lists and objects only when they are the same field. */
  private strictEquals(a: Val, b: Val): string {
    return byKind(a, (ka) => byKind(b, (kb) => (ka === kb ? this.sameKindEquals(a, b, ka) : 'FALSE')));
  }

  private sameKindEquals(a: Val, b: Val, kind: Kind): string {
    switch (kind) {
      case 'null':
        return 'TRUE';
      case 'boolean':
        return `(${a.bool()} = ${b.bool()})`;
      case 'number':
        return `(${a.num()} = ${b.num()})`;
      case 'string':
        return `(${a.text()} = ${b.text()})`;
      default:
        return a.ref !== undefined && a.ref === b.ref ? 'TRUE' : 'FALSE';
    }
  }

  /** JavaScript `==` (Abstract Equality Comparison). */
  private looseEquals(a: Val, b: Val, path: string): string {
    return byKind(a, (ka) =>
      byKind(b, (kb) => {
        if (ka === kb) return this.sameKindEquals(a, b, ka);
        if (ka === 'null' || kb === 'null') return 'FALSE';
        if (isComposite(ka) && isComposite(kb)) return 'FALSE';
        const pa = this.primitive(a, ka, '==', path);
        const pb = this.primitive(b, kb, '==', path);
        if (pa.kind === pb.kind) return `(${pa.sql} = ${pb.sql})`;
        return compareNumbers(this.toNumber(pa, '==', path), '=', this.toNumber(pb, '==', path));
      }),
    );
  }

  /** JavaScript `a < b` / `a <= b` (Abstract Relational Comparison; NaN compares false). */
  private compare(a: Val, b: Val, op: '<' | '<=', path: string): string {
    return byKind(a, (ka) =>
      byKind(b, (kb) => {
        const pa = this.primitive(a, ka, op, path);
        const pb = this.primitive(b, kb, op, path);
        if (pa.kind === 'string' && pb.kind === 'string') return this.compareStrings(pa, pb, op);
        return compareNumbers(this.toNumber(pa, op, path), op, this.toNumber(pb, op, path));
      }),
    );
  }

  /** JavaScript string order is by UTF-16 code unit; PostgreSQL's "C" order is by code point. They differ only past U+FFFF. */
  private compareStrings(a: Prim, b: Prim, op: '<' | '<='): string {
    const fast = `((${a.sql}) COLLATE "C" ${op} (${b.sql}) COLLATE "C")`;
    const sides = [a, b].map((p) => (p.lit ? (hasSupplementary(String(p.lit.value)) ? 'always' : 'never') : 'runtime'));
    if (sides.every((s) => s === 'never')) return fast;
    const slow = `(${this.utf16(a.sql)} ${op} ${this.utf16(b.sql)})`;
    if (sides.includes('always')) return slow;
    const test = [a, b]
      .filter((_, i) => sides[i] === 'runtime')
      .map((p) => `(${p.sql}) ~ ${SUPPLEMENTARY}`)
      .join(' OR ');
    return `(CASE WHEN ${test} THEN ${slow} ELSE ${fast} END)`;
  }

  /** The UTF-16 code units of a text, as int[] (arrays compare element by element, a prefix first). */
  private utf16(text: string): string {
    const n = this.aliases++;
    const c = `jl_c${n}`;
    const u = `jl_u${n}`;
    const cp = `ascii(${c}.ch)`;
    return `ARRAY(SELECT ${u}.unit FROM unnest(string_to_array(${text}, NULL)) WITH ORDINALITY AS ${c}(ch, i) CROSS JOIN LATERAL unnest(CASE WHEN ${cp} < 65536 THEN ARRAY[${cp}] ELSE ARRAY[55296 + ((${cp} - 65536) >> 10), 56320 + ((${cp} - 65536) & 1023)] END) WITH ORDINALITY AS ${u}(unit, j) ORDER BY ${c}.i, ${u}.j)`;
  }

  /** ToPrimitive: lists and objects become text (only for constants: JavaScript's number formatting is not reproduced). */
  private primitive(v: Val, kind: Kind, op: string, path: string): Prim {
    switch (kind) {
      case 'null':
        return { kind, sql: 'NULL', lit: { value: null } };
      case 'boolean':
        return { kind, sql: v.bool(), lit: v.lit };
      case 'number':
        return { kind, sql: v.num(), lit: v.lit };
      case 'string':
        return { kind, sql: v.text(), lit: v.lit };
    }
    if (v.lit) {
      const text = String(v.lit.value);
      return { kind: 'string', sql: this.param(text, 'text'), lit: { value: text } };
    }
    throw new JsonLogicSqlError(
      `"${op}" between a list or object field and another value needs JavaScript's conversion of the list to text, which the SQL translation does not reproduce; compare with "===" or "in" instead`,
      path,
    );
  }

  /** ToNumber; null means NaN. Text is converted only when it is a constant of the rule. */
  private toNumber(p: Prim, op: string, path: string): string | null {
    switch (p.kind) {
      case 'null':
        return `CAST(0 AS ${FLOAT})`;
      case 'number':
        return p.sql;
      case 'boolean':
        if (p.lit) return `CAST(${p.lit.value ? 1 : 0} AS ${FLOAT})`;
        return `(CASE WHEN ${p.sql} THEN CAST(1 AS ${FLOAT}) ELSE CAST(0 AS ${FLOAT}) END)`;
      case 'string': {
        if (!p.lit) {
          throw new JsonLogicSqlError(
            `"${op}" between a text field and a number, boolean or null needs JavaScript's text-to-number conversion of the field, which the SQL translation does not reproduce; compare the field with a text literal, or use "==="`,
            path,
          );
        }
        const n = Number(p.lit.value);
        return Number.isNaN(n) ? null : this.number(n);
      }
    }
  }

  // ---------- in ----------

  /** `in`: `b.indexOf(a) !== -1` when b is a list (strict equality) or a non-empty string (substring); false otherwise. */
  private contains(a: Val, b: Val, path: string): string {
    return byKind(b, (kb) => {
      if (kb === 'string') {
        const needle = this.asText(a, path);
        return `(${b.text()} <> '' AND strpos(${b.text()}, ${needle}) > 0)`;
      }
      if (kb !== 'array') return 'FALSE';
      if (b.elements)
        return b.elements.length ? `(${b.elements.map((e) => this.strictEquals(a, e)).join(' OR ')})` : 'FALSE';
      if (a.kinds.some(isComposite)) {
        throw new JsonLogicSqlError(
          '"in" of a list or object value in a list field compares references, which the SQL translation does not reproduce',
          path,
        );
      }
      // A string needle: jsonb containment of a one-string array matches exactly the top-level string
      // elements equal to it (strict equality), without a subquery per row.
      if (a.kinds.length === 1 && a.kinds[0] === 'string') return `(${b.json()} @> jsonb_build_array(${a.text()}))`;
      const alias = `jl_e${this.aliases++}`;
      const element = this.jsonVal(`${alias}.v`, ALL_KINDS);
      return `EXISTS (SELECT 1 FROM jsonb_array_elements(${b.json()}) AS ${alias}(v) WHERE ${this.strictEquals(a, element)})`;
    });
  }

  /** ToString of the needle of a substring search. */
  private asText(v: Val, path: string): string {
    return byKind(v, (k) => {
      switch (k) {
        case 'string':
          return v.text();
        case 'null':
          return `'null'`;
        case 'boolean':
          return v.lit ? `'${String(v.lit.value)}'` : `(CASE WHEN ${v.bool()} THEN 'true' ELSE 'false' END)`;
      }
      if (v.lit) return this.param(String(v.lit.value), 'text');
      throw new JsonLogicSqlError(
        `"in" of a ${k === 'number' ? 'number' : 'list or object'} field in a string needs JavaScript's conversion of it to text, which the SQL translation does not reproduce`,
        path,
      );
    });
  }
}

function defaultTruthy(v: Val): string {
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
function byKind(v: Val, arm: (kind: Kind) => string): string {
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

function compareNumbers(a: string | null, op: string, b: string | null): string {
  if (a === null || b === null) return 'FALSE';
  return `(${a} ${op} ${b})`;
}

function union(a: readonly Kind[], b: readonly Kind[]): Kind[] {
  return ALL_KINDS.filter((k) => a.includes(k) || b.includes(k));
}

function unreachable(): never {
  throw new Error('json-logic sql: accessor of a kind the value cannot take');
}

/** PostgreSQL text cannot hold NUL or unpaired surrogates. */
function checkString(s: string, path: string) {
  // eslint-disable-next-line no-control-regex -- NUL is exactly what this refuses
  if (/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s)) {
    throw new JsonLogicSqlError('strings cannot contain NUL characters or unpaired surrogates', path);
  }
}

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
