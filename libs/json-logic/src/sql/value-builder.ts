import { JsonLogicSqlError } from './sql-translation.error';
import {
  ALL_KINDS,
  checkString,
  defaultTruthy,
  FLOAT,
  JSON_EMPTY_ARRAY,
  JSON_NULL,
  Kind,
  SqlField,
  SqlFieldMap,
  token,
  union,
  unreachable,
  Val,
} from './sql-values';

/** The values of a translation: literals bound as parameters, lists, booleans and whitelisted fields. */
export abstract class ValueBuilder {
  readonly params: unknown[] = [];
  protected aliases = 0;
  private readonly fields: Map<string, SqlField>;

  constructor(fields: SqlFieldMap) {
    this.fields = new Map(
      Object.entries(fields).map(([name, f]) => [name, typeof f === 'string' ? { sql: f, type: 'string' } : f]),
    );
  }

  // ---------- literals and parameters ----------

  protected param(value: unknown, type: 'text' | 'jsonb' | typeof FLOAT): string {
    this.params.push(value);
    return `CAST(${token(this.params.length - 1)} AS ${type})`;
  }

  protected number(n: number): string {
    return this.param(String(n), FLOAT);
  }

  protected literal(value: unknown, path: string): Val {
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

  protected constant(
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
  protected jsonVal(sql: string, kinds: readonly Kind[], extra: Partial<Pick<Val, 'ref' | 'truthy'>> = {}): Val {
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

  protected boolVal(sql: string): Val {
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

  protected arrayVal(elements: Val[]): Val {
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

  protected field(name: string, path: string): SqlField {
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

  protected varVal(name: string, fallback: Val | undefined, path: string): Val {
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
}
