/**
 * The operators of JSON-Logic (json-logic-js 2.0.5, the reference implementation), with the
 * number of arguments each accepts where that is clear. `validate()` refuses any other operator
 * and any arity outside these bounds; `compile()` evaluates exactly like json-logic-js `apply`.
 */
export interface OperatorSpec {
  /** Fewest arguments that make sense. */
  min: number;
  /** Most arguments that make sense (Infinity: any number). */
  max: number;
  /** Evaluated lazily (control flow and array iteration) rather than depth-first. */
  lazy?: boolean;
}

export const OPERATORS: Readonly<Record<string, OperatorSpec>> = Object.freeze({
  // Accessing data
  var: { min: 0, max: 2 },
  missing: { min: 0, max: Infinity },
  missing_some: { min: 2, max: 2 },
  // Logic and boolean operations
  if: { min: 0, max: Infinity, lazy: true },
  '?:': { min: 3, max: 3, lazy: true },
  '==': { min: 2, max: 2 },
  '===': { min: 2, max: 2 },
  '!=': { min: 2, max: 2 },
  '!==': { min: 2, max: 2 },
  '!': { min: 1, max: 1 },
  '!!': { min: 1, max: 1 },
  or: { min: 1, max: Infinity, lazy: true },
  and: { min: 1, max: Infinity, lazy: true },
  // Numeric operations
  '>': { min: 2, max: 2 },
  '>=': { min: 2, max: 2 },
  '<': { min: 2, max: 3 },
  '<=': { min: 2, max: 3 },
  max: { min: 0, max: Infinity },
  min: { min: 0, max: Infinity },
  '+': { min: 0, max: Infinity },
  '-': { min: 1, max: 2 },
  '*': { min: 1, max: Infinity },
  '/': { min: 2, max: 2 },
  '%': { min: 2, max: 2 },
  // Array operations
  map: { min: 2, max: 2, lazy: true },
  filter: { min: 2, max: 2, lazy: true },
  reduce: { min: 2, max: 3, lazy: true },
  all: { min: 2, max: 2, lazy: true },
  none: { min: 2, max: 2, lazy: true },
  some: { min: 2, max: 2, lazy: true },
  merge: { min: 0, max: Infinity },
  in: { min: 2, max: 2 },
  // String operations
  cat: { min: 0, max: Infinity },
  substr: { min: 2, max: 3 },
  // Miscellaneous (compiled as a pass-through: it returns its argument and writes nothing)
  log: { min: 1, max: 1 },
});

export const OPERATOR_NAMES: readonly string[] = Object.freeze(Object.keys(OPERATORS));

export const isOperator = (name: string): boolean => Object.prototype.hasOwnProperty.call(OPERATORS, name);

/** JSON-Logic truthiness: like JavaScript, except that an empty array is false. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value) && value.length === 0) return false;
  return !!value;
}

/** An operation node: a plain object with exactly one key (the operator). Anything else is a literal. */
export function isLogic(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1;
}
