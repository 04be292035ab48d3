import { JsonLogicRule } from './compile';
import { isOperator, OPERATORS } from './operators';

export interface JsonLogicIssue {
  /** Where in the rule, e.g. `and[1].==[0]` (empty for the rule itself). */
  path: string;
  message: string;
}

export type ValidationResult = { valid: true; rule: JsonLogicRule } | { valid: false; errors: JsonLogicIssue[] };

export interface ValidateOptions {
  /** Deepest nesting of operations and arrays accepted (default 64). */
  maxDepth?: number;
  /** Most nodes (operations, arrays and literals) accepted (default 5,000). */
  maxNodes?: number;
  /**
   * Most evaluation steps the rule may take in the worst case, as `estimateCost` counts them
   * (default DEFAULT_MAX_COST). Iteration operators multiply: three nested `some` over 450-item
   * lists are 91 million steps in 5 KB of rule.
   */
  maxCost?: number;
  /** Items assumed in an array the rule iterates that comes from the data (default 100). */
  assumedArrayLength?: number;
}

/** The documented write-time budget of a rule: worst-case evaluation steps (docs/security.md, "Rules engine"). */
export const DEFAULT_MAX_COST = 100_000;
/** Items assumed in an array from the data that a rule iterates over. */
export const DEFAULT_ASSUMED_ARRAY_LENGTH = 100;

const ITERATION = new Set(['map', 'filter', 'reduce', 'all', 'none', 'some']);

export interface CostEstimate {
  /** Worst-case evaluation steps: one per node, iteration bodies once per item. */
  cost: number;
  /** The first (innermost) operation whose own estimate is over `maxCost`, if any. */
  over?: { path: string; cost: number };
}

/**
 * Estimates the worst-case number of evaluation steps of a (structurally valid) rule: each node
 * costs one step plus its arguments; an iteration operator costs its source plus its body once
 * per item, the items being the length of a literal list, or `assumedArrayLength` for a list
 * that comes from the data (map and filter keep their source's length; merge adds lengths).
 */
export function estimateCost(
  rule: unknown,
  options: { maxCost?: number; assumedArrayLength?: number } = {},
): CostEstimate {
  const maxCost = options.maxCost ?? DEFAULT_MAX_COST;
  const assumed = options.assumedArrayLength ?? DEFAULT_ASSUMED_ARRAY_LENGTH;
  let over: CostEstimate['over'];
  const lengthOf = (node: unknown): number => {
    if (Array.isArray(node)) return node.length;
    if (node === null || typeof node !== 'object') return 1;
    const op = Object.keys(node)[0];
    const raw = (node as Record<string, unknown>)[op];
    const args = Array.isArray(raw) ? raw : [raw];
    if (op === 'map' || op === 'filter') return lengthOf(args[0]);
    if (op === 'merge') return args.reduce((n: number, a) => n + lengthOf(a), 0);
    return assumed;
  };
  const costOf = (node: unknown, path: string): number => {
    if (Array.isArray(node)) return node.reduce((sum: number, item, i) => sum + costOf(item, `${path}[${i}]`), 1);
    if (node === null || typeof node !== 'object') return 1;
    const op = Object.keys(node)[0];
    const here = path ? `${path}.${op}` : op;
    const raw = (node as Record<string, unknown>)[op];
    const args = Array.isArray(raw) ? raw : [raw];
    let cost: number;
    if (ITERATION.has(op)) {
      const items = lengthOf(args[0]);
      cost =
        1 +
        costOf(args[0], `${here}[0]`) +
        items * costOf(args[1], `${here}[1]`) +
        (args.length > 2 ? costOf(args[2], `${here}[2]`) : 0);
    } else cost = args.reduce((sum: number, a, i) => sum + costOf(a, `${here}[${i}]`), 1);
    if (!over && cost > maxCost) over = { path: here, cost };
    return cost;
  };
  return { cost: costOf(rule, ''), over };
}

/**
 * Checks that a rule (a parsed JSON value) is JSON-Logic this project can evaluate, before it is
 * stored or compiled:
 * - only JSON values (no undefined, functions, NaN or Infinity);
 * - every object is an operation: exactly one key, a known operator (the json-logic-js 2.0.5
 *   set; dotted and custom operators are refused);
 * - each operator gets a number of arguments it can use (e.g. `==` two, `<` two or three);
 * - bounded depth and size;
 * - a bounded worst-case evaluation cost (estimateCost; iteration operators multiply).
 * Returns every problem found, each with its path in the rule. For JSON text (a condition sent
 * in a form field) use `validateJson`.
 */
export function validate(rule: unknown, options: ValidateOptions = {}): ValidationResult {
  const errors: JsonLogicIssue[] = [];
  const maxDepth = options.maxDepth ?? 64;
  const maxNodes = options.maxNodes ?? 5_000;
  let nodes = 0;
  let tooBig = false;

  const visit = (node: unknown, path: string, depth: number): void => {
    if (tooBig) return;
    if (++nodes > maxNodes) {
      errors.push({ path, message: `has more than ${maxNodes} nodes` });
      tooBig = true;
      return;
    }
    if (depth > maxDepth) {
      errors.push({ path, message: `is nested more than ${maxDepth} levels deep` });
      tooBig = true;
      return;
    }
    if (node === null || typeof node === 'string' || typeof node === 'boolean') return;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) errors.push({ path, message: 'is not a JSON number' });
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, `${path}[${i}]`, depth + 1));
      return;
    }
    if (
      typeof node !== 'object' ||
      (Object.getPrototypeOf(node) !== Object.prototype && Object.getPrototypeOf(node) !== null)
    ) {
      errors.push({ path, message: 'is not a JSON value' });
      return;
    }
    const keys = Object.keys(node);
    if (keys.length !== 1) {
      errors.push({
        path,
        message: `an operation must be an object with exactly one key, the operator (found ${keys.length === 0 ? 'none' : keys.map((k) => JSON.stringify(k)).join(', ')})`,
      });
      return;
    }
    const op = keys[0];
    const here = path ? `${path}.${op}` : op;
    if (!isOperator(op)) {
      errors.push({ path: here, message: `unknown operator ${JSON.stringify(op)}` });
      return;
    }
    const raw = (node as Record<string, unknown>)[op];
    const args = Array.isArray(raw) ? raw : [raw];
    const { min, max } = OPERATORS[op];
    if (args.length < min || args.length > max) {
      const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
      errors.push({
        path: here,
        message: `${op} takes ${expected} argument${(max === Infinity ? min : max) === 1 ? '' : 's'}, got ${args.length}`,
      });
    }
    args.forEach((arg, i) => visit(arg, `${here}[${i}]`, depth + 1));
  };

  visit(rule, '', 0);
  if (!errors.length) {
    const maxCost = options.maxCost ?? DEFAULT_MAX_COST;
    const { over } = estimateCost(rule, { maxCost, assumedArrayLength: options.assumedArrayLength });
    if (over)
      errors.push({
        path: over.path,
        message: `may take up to ${Math.min(over.cost, Number.MAX_SAFE_INTEGER).toLocaleString('en-US')} evaluation steps, more than the budget of ${maxCost.toLocaleString('en-US')} (iterations multiply: iterate over fewer or shorter lists)`,
      });
  }
  return errors.length ? { valid: false, errors } : { valid: true, rule };
}

/** One line per problem: `<path>: <message>` (or just the message for the whole rule). */
export const describeIssues = (errors: JsonLogicIssue[]): string =>
  errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');

/** Parses JSON text and validates the rule it holds; text that is not JSON is refused. */
export function validateJson(text: string, options: ValidateOptions = {}): ValidationResult {
  let rule: unknown;
  try {
    rule = JSON.parse(text);
  } catch (err) {
    return { valid: false, errors: [{ path: '', message: `is not valid JSON (${(err as Error).message})` }] };
  }
  return validate(rule, options);
}
