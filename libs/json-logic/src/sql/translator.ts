import { Comparisons } from './comparisons';
import { JsonLogicSqlError } from './sql-translation.error';
import { byKind, checkString, JSON_EMPTY_ARRAY, Kind, union, Val } from './sql-values';

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

/** Translates one rule, operator by operator, into a Val (see to-sql.ts). */
export class Translator extends Comparisons {
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

  protected fieldName(value: unknown, path: string): string {
    if (value === undefined || value === null || value === '') return '';
    if (typeof value === 'string') {
      checkString(value, path);
      return value;
    }
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    throw new JsonLogicSqlError('a field name must be a literal string or number', path);
  }

  protected var(args: unknown[], at: string, depth: number): Val {
    if (args.length > 2)
      throw new JsonLogicSqlError(`"var" takes a field name and an optional default, got ${args.length} arguments`, at);
    const name = this.fieldName(args[0], `${at}[0]`);
    const fallback = args.length === 2 ? this.compile(args[1], `${at}[1]`, depth + 1) : undefined;
    return this.varVal(name, fallback, at);
  }

  protected missing(args: unknown[], at: string): Val {
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
  protected andOr(op: 'and' | 'or', vals: Val[]): Val {
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
}
