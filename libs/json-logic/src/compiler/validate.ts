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
}

/**
 * Checks that a rule (a parsed JSON value) is JSON-Logic this project can evaluate, before it is
 * stored or compiled:
 * - only JSON values (no undefined, functions, NaN or Infinity);
 * - every object is an operation: exactly one key, a known operator (the json-logic-js 2.0.5
 *   set; dotted and custom operators are refused);
 * - each operator gets a number of arguments it can use (e.g. `==` two, `<` two or three);
 * - bounded depth and size.
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
