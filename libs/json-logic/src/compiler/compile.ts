/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return --
   JSON-Logic is dynamically typed: its operators are JavaScript's own operators and coercions applied to any
   JSON value (exactly as the reference json-logic-js does), so values are `any` here by design. */
import {
  compileConstantMissing,
  compileConstantVar,
  Evaluator,
  inOperation,
  isPrimitive,
  lookup,
  substr,
} from './data-access';
import { isLogic, truthy } from './operators';

/** A JSON-Logic rule: a literal, an array of rules, or `{ "<operator>": <argument or arguments> }`. */
export type JsonLogicRule = unknown;

/** The compiled form of a rule: evaluate it against data. */
export type CompiledRule = (data?: unknown) => unknown;

type Operation = (data: any, args: any[]) => any;

/**
 * Compiles a rule into a tree of closures, built once: evaluating it walks no JSON, looks up no
 * operator and allocates only where the operation itself returns something new.
 *
 * The semantics are exactly those of json-logic-js 2.0.5 `apply(rule, data)` (the reference,
 * checked against the official test suite and a differential test): the same coercions, the
 * same short-circuiting, every argument of a non-lazy operation evaluated (so errors surface
 * the same way), literals returned by reference. An unknown operator is not an error here, just
 * as in `apply`: it throws `Unrecognized operation` when it is evaluated. Call `validate()` first
 * to refuse such rules up front. The one deliberate difference: `log` returns its argument
 * without writing to the console.
 */
export function compile(rule: JsonLogicRule, options: CompileOptions = {}): CompiledRule {
  const root = compileNode(rule);
  const maxSteps = options.maxSteps;
  // Only iterations take steps (and `missing` may compile a rule from the data): a rule without
  // them needs no budget, and keeps the plain closure.
  if (maxSteps === undefined || !mayIterate(rule)) return (data?: unknown) => root(data);
  return (data?: unknown) => {
    const outer = budget;
    budget = maxSteps;
    try {
      return root(data);
    } finally {
      budget = outer;
    }
  };
}

export interface CompileOptions {
  /**
   * Most iteration steps (items visited by map, filter, reduce, all, none, some) one evaluation
   * may take; beyond it the evaluation throws EvaluationBudgetExceeded. Default: no limit.
   */
  maxSteps?: number;
}

/** Thrown by an evaluation that went over its step budget (compile's `maxSteps`). */
export class EvaluationBudgetExceeded extends Error {
  constructor() {
    super('the evaluation went over its step budget');
    this.name = 'EvaluationBudgetExceeded';
  }
}

const STEPPING = new Set(['map', 'filter', 'reduce', 'all', 'none', 'some', 'missing', 'missing_some']);

/** True when the rule holds an operation that may take steps (an iteration, or `missing` / `missing_some`). */
function mayIterate(rule: unknown): boolean {
  const stack: unknown[] = [rule];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...(node as unknown[]));
    else if (node !== null && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        if (STEPPING.has(key) || key.includes('.')) return true;
        stack.push(value);
      }
  }
  return false;
}

/** Steps left to the running evaluation (evaluation is synchronous: one at a time per thread). */
let budget = Infinity;
const step = () => {
  if (--budget < 0) throw new EvaluationBudgetExceeded();
};

const OPS: Record<string, Operation> = Object.create(null);

OPS['=='] = (_d, a) => a[0] == a[1];
OPS['==='] = (_d, a) => a[0] === a[1];
OPS['!='] = (_d, a) => a[0] != a[1];
OPS['!=='] = (_d, a) => a[0] !== a[1];
OPS['>'] = (_d, a) => a[0] > a[1];
OPS['>='] = (_d, a) => a[0] >= a[1];
OPS['<'] = (_d, a) => (a[2] === undefined ? a[0] < a[1] : a[0] < a[1] && a[1] < a[2]);
OPS['<='] = (_d, a) => (a[2] === undefined ? a[0] <= a[1] : a[0] <= a[1] && a[1] <= a[2]);
OPS['!!'] = (_d, a) => truthy(a[0]);
OPS['!'] = (_d, a) => !truthy(a[0]);
OPS['%'] = (_d, a) => a[0] % a[1];
OPS.log = (_d, a) => a[0];
OPS.in = (_d, a) => inOperation(a[0], a[1]);
OPS.cat = (_d, a) => a.join('');
OPS.substr = (_d, a) => substr(a[0], a[1], a[2]);
OPS['+'] = (_d, a) => a.reduce((x: any, y: any) => parseFloat(x) + parseFloat(y), 0);
OPS['*'] = (_d, a) => a.reduce((x: any, y: any) => parseFloat(x) * parseFloat(y));
OPS['-'] = (_d, a) => (a[1] === undefined ? -a[0] : a[0] - a[1]);
OPS['/'] = (_d, a) => a[0] / a[1];
OPS.min = (_d, a) => Math.min(...a);
OPS.max = (_d, a) => Math.max(...a);
OPS.merge = (_d, a) => a.reduce((x: any[], y: any) => x.concat(y), []);
OPS.var = (d, a) => lookup(d, a[0], a[1]);
OPS.missing = (d, a) => missing(d, a);
OPS.missing_some = (d, a) => missingSome(d, a[0], a[1]);

const hasOp = (name: string) => Object.prototype.hasOwnProperty.call(OPS, name);
const UNDEFINED: Evaluator = () => undefined;

/** `{"var": key}` applied to data, for a key computed at run time (the reference re-evaluates it as a rule). */
function lookupKey(data: any, key: any): any {
  return isPrimitive(key) ? lookup(data, key, undefined) : compileNode({ var: key })(data);
}

function missing(data: any, args: any[]): any[] {
  const out: any[] = [];
  const keys = Array.isArray(args[0]) ? args[0] : args;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const value = lookupKey(data, key);
    if (value === null || value === '') out.push(key);
  }
  return out;
}

function missingSome(data: any, needCount: any, options: any): any[] {
  // The reference applies {"missing": options} (evaluating options once more as a rule).
  const areMissing =
    Array.isArray(options) && options.every(isPrimitive)
      ? missing(data, options)
      : compileNode({ missing: options })(data);
  if (options.length - areMissing.length >= needCount) return [];
  return areMissing;
}

/** `op.prototype.constructor…` reaches the operation itself in the reference; any other dotted path throws there. */
function dottedOperation(op: string): string | undefined {
  const [base, ...rest] = op.split('.');
  if (!hasOp(base) || rest.length % 2 !== 0) return undefined;
  return rest.every((seg, i) => seg === (i % 2 === 0 ? 'prototype' : 'constructor')) ? base : undefined;
}

function compileNode(logic: unknown): Evaluator {
  if (Array.isArray(logic)) {
    const items = logic.map(compileNode);
    return (d) => items.map((f) => f(d));
  }
  if (!isLogic(logic)) return () => logic;

  const op = Object.keys(logic)[0];
  const raw = logic[op];
  const values: unknown[] = Array.isArray(raw) ? raw : [raw];

  switch (op) {
    case 'if':
    case '?:':
      return compileIf(values);
    case 'and':
    case 'or':
      return compileAndOr(op, values);
    case 'filter':
    case 'map':
    case 'reduce':
    case 'all':
    case 'none':
    case 'some':
      return compileIteration(op, values);
  }

  const args = values.map(compileNode);
  let name: string | undefined = hasOp(op) ? op : undefined;
  if (!name && op.indexOf('.') > 0) name = dottedOperation(op);
  if (!name) {
    return (d) => {
      for (const f of args) f(d);
      throw new Error(`Unrecognized operation ${op}`);
    };
  }
  return compileOperation(name, args, values);
}

function compileIf(values: unknown[]): Evaluator {
  const fns = values.map(compileNode);
  const n = fns.length;
  if (n === 3) {
    const [c, a, b] = fns;
    return (d) => (truthy(c(d)) ? a(d) : b(d));
  }
  return (d) => {
    let i;
    for (i = 0; i < n - 1; i += 2) if (truthy(fns[i](d))) return fns[i + 1](d);
    if (n === i + 1) return fns[i](d);
    return null;
  };
}

function compileAndOr(op: 'and' | 'or', values: unknown[]): Evaluator {
  const fns = values.map(compileNode);
  const n = fns.length;
  if (op === 'and') {
    if (n === 2) {
      const [a, b] = fns;
      return (d) => {
        const x = a(d);
        return truthy(x) ? b(d) : x;
      };
    }
    return (d) => {
      let current;
      for (let i = 0; i < n; i++) {
        current = fns[i](d);
        if (!truthy(current)) return current;
      }
      return current;
    };
  }
  return (d) => {
    let current;
    for (let i = 0; i < n; i++) {
      current = fns[i](d);
      if (truthy(current)) return current;
    }
    return current;
  };
}

function compileIteration(op: string, values: unknown[]): Evaluator {
  const source = compileNode(values[0]);
  const scoped = compileNode(values[1]);
  switch (op) {
    case 'filter':
      return (d) => {
        const items = source(d);
        if (!Array.isArray(items)) return [];
        return items.filter((datum) => (step(), truthy(scoped(datum))));
      };
    case 'map':
      return (d) => {
        const items = source(d);
        if (!Array.isArray(items)) return [];
        return items.map((datum) => (step(), scoped(datum)));
      };
    case 'reduce': {
      const initial = values.length > 2 && typeof values[2] !== 'undefined' ? compileNode(values[2]) : () => null;
      return (d) => {
        const items = source(d);
        const start = initial(d);
        if (!Array.isArray(items)) return start;
        return items.reduce((accumulator, current) => (step(), scoped({ current, accumulator })), start);
      };
    }
    case 'all':
      return (d) => {
        const items = source(d);
        if (!Array.isArray(items) || !items.length) return false;
        for (let i = 0; i < items.length; i++) {
          step();
          if (!truthy(scoped(items[i]))) return false;
        }
        return true;
      };
    case 'none':
      return (d) => {
        const items = source(d);
        if (!Array.isArray(items) || !items.length) return true;
        for (let i = 0; i < items.length; i++) {
          step();
          if (truthy(scoped(items[i]))) return false;
        }
        return true;
      };
    default: // some
      return (d) => {
        const items = source(d);
        if (!Array.isArray(items) || !items.length) return false;
        for (let i = 0; i < items.length; i++) {
          step();
          if (truthy(scoped(items[i]))) return true;
        }
        return false;
      };
  }
}

/** Depth-first operations: every argument is evaluated, then the operation runs. Common shapes get a direct closure. */
function compileOperation(name: string, args: Evaluator[], values: unknown[]): Evaluator {
  const n = args.length;
  if (name === 'var') {
    const fast = compileConstantVar(values);
    if (fast) return fast;
  }
  if (name === 'missing') {
    const fast = compileConstantMissing(values);
    if (fast) return fast;
  }
  if (name === 'substr' && n <= 3) {
    const [a, b, c] = [args[0] ?? UNDEFINED, args[1] ?? UNDEFINED, args[2] ?? UNDEFINED];
    return (d) => {
      const source = a(d);
      const start = b(d);
      return substr(source, start, c(d));
    };
  }
  if (n <= 2) {
    const a = args[0] ?? UNDEFINED;
    const b = args[1] ?? UNDEFINED;
    switch (name) {
      case '==':
        return (d) => a(d) == b(d);
      case '===':
        return (d) => a(d) === b(d);
      case '!=':
        return (d) => a(d) != b(d);
      case '!==':
        return (d) => a(d) !== b(d);
      case '>':
        return (d) => a(d) > b(d);
      case '>=':
        return (d) => a(d) >= b(d);
      case '<':
        return (d) => a(d) < b(d);
      case '<=':
        return (d) => a(d) <= b(d);
      case 'in': {
        // A literal list of literals is only read by `in`: the same array serves every evaluation
        // (the reference builds an equal one each time; the result is the same).
        const list = values[1];
        if (Array.isArray(list) && list.every(isPrimitive)) {
          const constant = [...list];
          return (d) => inOperation(a(d), constant);
        }
        return (d) => {
          const x = a(d);
          return inOperation(x, b(d));
        };
      }
      case '!':
        if (n === 1) return (d) => !truthy(a(d));
        break;
      case '!!':
        if (n === 1) return (d) => truthy(a(d));
        break;
    }
  }
  const operation = OPS[name];
  return (d) => {
    const evaluated = new Array(n);
    for (let i = 0; i < n; i++) evaluated[i] = args[i](d);
    return operation(d, evaluated);
  };
}
