/**
 * JSON-Logic ↔ the tree the visual editor draws: groups (and / or, optionally negated), conditions
 * (a variable, an operator, a value) and raw nodes (anything the editor cannot draw, kept as JSON).
 *
 * Lossless by construction: a JSON-Logic node is drawn as a group or a condition only when writing
 * that group or condition back gives exactly the same JSON; anything else becomes a raw node that
 * is written back untouched. So `fromTree(toTree(rule))` deep-equals `rule` for every rule.
 */

export type VariableType = 'string' | 'number' | 'boolean' | 'date' | 'array';

/** A variable the editor offers (the interface the rules and segment builders pass). */
export interface LogicVariable {
  name: string;
  type: VariableType;
  label?: string;
  options?: string[];
}

/** The operators a condition can use, each with the JSON-Logic shape it is written as. */
export const OPERATORS = {
  /** {"==": [{"var": x}, v]} */
  '==': { types: ['string', 'number', 'boolean', 'date'] },
  '!=': { types: ['string', 'number', 'boolean', 'date'] },
  '===': { types: ['string', 'number', 'boolean', 'date'] },
  '!==': { types: ['string', 'number', 'boolean', 'date'] },
  '<': { types: ['number', 'date', 'string'] },
  '<=': { types: ['number', 'date', 'string'] },
  '>': { types: ['number', 'date', 'string'] },
  '>=': { types: ['number', 'date', 'string'] },
  /** {"<=": [low, {"var": x}, high]} */
  between: { types: ['number', 'date'] },
  /** {"in": [{"var": x}, [v1, v2]]}: the variable is one of the values. */
  in: { types: ['string', 'number'] },
  /** {"in": [v, {"var": x}]}: the text contains v, or the list has v. */
  contains: { types: ['string', 'array'] },
  /** {"!!": [{"var": x}]}: has a value (not null, "", 0, false or []). */
  set: { types: ['string', 'number', 'boolean', 'date', 'array'] },
  /** {"!": [{"var": x}]} */
  unset: { types: ['string', 'number', 'boolean', 'date', 'array'] },
} as const satisfies Record<string, { types: readonly VariableType[] }>;

export type OperatorId = keyof typeof OPERATORS;
export const OPERATOR_IDS = Object.keys(OPERATORS) as OperatorId[];

/** The operators that fit a variable's type (unknown variables: all of them). */
export function operatorsFor(type: VariableType | undefined): OperatorId[] {
  if (!type) return OPERATOR_IDS;
  return OPERATOR_IDS.filter((op) => (OPERATORS[op].types as readonly VariableType[]).includes(type));
}

export type Literal = string | number | boolean | null;

export interface GroupNode {
  kind: 'group';
  op: 'and' | 'or';
  /** Written as {"!": [{"and": …}]}. */
  not: boolean;
  children: LogicNode[];
}

export interface ConditionNode {
  kind: 'condition';
  variable: string;
  operator: OperatorId;
  /** A literal; [low, high] for between; a list of literals for in; undefined for set / unset. */
  value: unknown;
}

export interface RawNode {
  kind: 'raw';
  json: unknown;
}

export type LogicNode = GroupNode | ConditionNode | RawNode;

const BINARY = new Set<string>(['==', '!=', '===', '!==', '<', '<=', '>', '>=']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isLiteral = (v: unknown): v is Literal =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** Deep equality of JSON values (key order ignored, as JSON-Logic does). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]))
    );
  }
  return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
}

/** The single operation of a JSON-Logic node ({"op": args}), or undefined. */
function operation(node: unknown): { op: string; args: unknown } | undefined {
  if (!isObject(node)) return undefined;
  const keys = Object.keys(node);
  return keys.length === 1 ? { op: keys[0], args: node[keys[0]] } : undefined;
}

/** The name of {"var": "name"} (the plain form only), or undefined. */
function varName(node: unknown): string | undefined {
  const o = operation(node);
  return o?.op === 'var' && typeof o.args === 'string' && o.args !== '' ? o.args : undefined;
}

/** A condition's reading of a node, before the round-trip check. */
function readCondition(node: unknown): ConditionNode | undefined {
  const o = operation(node);
  if (!o || !Array.isArray(o.args)) return undefined;
  const args = o.args as unknown[];
  const cond = (variable: string, operator: OperatorId, value: unknown): ConditionNode => ({
    kind: 'condition',
    variable,
    operator,
    value,
  });
  if (BINARY.has(o.op) && args.length === 2 && varName(args[0]) && isLiteral(args[1]))
    return cond(varName(args[0])!, o.op as OperatorId, args[1]);
  if (o.op === '<=' && args.length === 3 && varName(args[1]) && isLiteral(args[0]) && isLiteral(args[2]))
    return cond(varName(args[1])!, 'between', [args[0], args[2]]);
  if (o.op === 'in' && args.length === 2) {
    if (varName(args[0]) && Array.isArray(args[1]) && args[1].every(isLiteral))
      return cond(varName(args[0])!, 'in', [...args[1]]);
    if (varName(args[1]) && isLiteral(args[0])) return cond(varName(args[1])!, 'contains', args[0]);
  }
  if ((o.op === '!!' || o.op === '!') && args.length === 1 && varName(args[0]))
    return cond(varName(args[0])!, o.op === '!!' ? 'set' : 'unset', undefined);
  return undefined;
}

/** A group's reading of a node, before the round-trip check. */
function readGroup(node: unknown): GroupNode | undefined {
  const o = operation(node);
  if (!o) return undefined;
  if ((o.op === 'and' || o.op === 'or') && Array.isArray(o.args))
    return { kind: 'group', op: o.op, not: false, children: (o.args as unknown[]).map(toTree) };
  if (o.op === '!' && Array.isArray(o.args) && o.args.length === 1) {
    const inner = readGroup(o.args[0]);
    if (inner && !inner.not) return { ...inner, not: true };
  }
  return undefined;
}

/**
 * The tree of a JSON-Logic rule. `undefined` (no rule yet) is an empty "and" group; anything the
 * editor cannot draw exactly is a raw node holding the JSON as it is.
 */
export function toTree(json: unknown): LogicNode {
  if (json === undefined) return { kind: 'group', op: 'and', not: false, children: [] };
  for (const read of [readGroup, readCondition]) {
    const node = read(json);
    if (node && jsonEqual(fromTree(node), json)) return node;
  }
  return { kind: 'raw', json };
}

/** The JSON-Logic of a tree. */
export function fromTree(node: LogicNode): unknown {
  switch (node.kind) {
    case 'raw':
      return node.json;
    case 'group': {
      const group = { [node.op]: node.children.map(fromTree) };
      return node.not ? { '!': [group] } : group;
    }
    case 'condition': {
      const v = { var: node.variable };
      switch (node.operator) {
        case 'between': {
          const [low, high] = Array.isArray(node.value) ? (node.value as unknown[]) : [null, null];
          return { '<=': [low ?? null, v, high ?? null] };
        }
        case 'in':
          return { in: [v, Array.isArray(node.value) ? node.value : []] };
        case 'contains':
          return { in: [node.value ?? '', v] };
        case 'set':
          return { '!!': [v] };
        case 'unset':
          return { '!': [v] };
        default:
          return { [node.operator]: [v, node.value ?? null] };
      }
    }
  }
}

/** The value a condition starts with (or keeps, when it still fits) for a variable type and operator. */
export function defaultValue(type: VariableType | undefined, operator: OperatorId, previous?: unknown): unknown {
  const scalar = (v: unknown): Literal => {
    if (isLiteral(v) && !Array.isArray(v)) {
      if (type === 'boolean') return typeof v === 'boolean' ? v : true;
      if (type === 'number') return typeof v === 'number' ? v : 0;
      return typeof v === 'string' ? v : '';
    }
    return type === 'boolean' ? true : type === 'number' ? 0 : '';
  };
  switch (operator) {
    case 'set':
    case 'unset':
      return undefined;
    case 'between':
      return Array.isArray(previous) && previous.length === 2 ? previous : [scalar(undefined), scalar(undefined)];
    case 'in':
      return Array.isArray(previous) ? previous : previous === undefined || previous === '' ? [] : [scalar(previous)];
    case 'contains':
      return typeof previous === 'string' ? previous : '';
    default:
      return scalar(Array.isArray(previous) ? previous[0] : previous);
  }
}

/** A new condition on a variable, with its type's first operator. */
export function newCondition(variable: LogicVariable | undefined): ConditionNode {
  const operator: OperatorId = operatorsFor(variable?.type)[0] ?? '==';
  return {
    kind: 'condition',
    variable: variable?.name ?? '',
    operator,
    value: defaultValue(variable?.type, operator, variable?.options?.[0]),
  };
}

/** A path in the tree: the child indexes from the root. */
export type NodePath = readonly number[];

/** The tree with the node at `path` replaced by `replace(node)` (or removed when it gives undefined). */
export function updateAt(
  root: LogicNode,
  path: NodePath,
  replace: (node: LogicNode) => LogicNode | undefined,
): LogicNode {
  if (!path.length) return replace(root) ?? { kind: 'group', op: 'and', not: false, children: [] };
  if (root.kind !== 'group') return root;
  const [head, ...rest] = path;
  const children = [...root.children];
  const child = children[head];
  if (child === undefined) return root;
  if (!rest.length) {
    const next = replace(child);
    if (next === undefined) children.splice(head, 1);
    else children[head] = next;
  } else children[head] = updateAt(child, rest, replace);
  return { ...root, children };
}

/**
 * Turns what a person typed into the value of a scalar condition: a number for number variables
 * when it reads as one (else the text, which JSON-Logic compares as JavaScript would), the text
 * otherwise.
 */
export function parseScalar(type: VariableType | undefined, text: string): Literal {
  if (type === 'number') {
    const trimmed = text.trim();
    const n = Number(trimmed);
    return trimmed !== '' && Number.isFinite(n) ? n : text;
  }
  if (type === 'boolean') return text === 'true';
  return text;
}

/** A list typed as comma-separated values (numbers for number variables). */
export function parseList(type: VariableType | undefined, text: string): Literal[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => parseScalar(type, s));
}

export const formatList = (value: unknown): string =>
  Array.isArray(value) ? value.map((v) => (v === null ? 'null' : String(v))).join(', ') : '';
