import jsonLogic from 'json-logic-js';

import { compile } from './compile';
import { OPERATOR_NAMES } from './operators';

/**
 * Differential test: compile(rule)(data) must equal json-logic-js 2.0.5 apply(rule, data) (the
 * reference) on a broad generated set: every operator with usual and unusual arities, missing
 * variables, type coercions, nested data, arrays, iteration scopes, dotted and unknown
 * operators. Generation is seeded, so a failure names a rule that reproduces.
 */

/** mulberry32: a small seeded PRNG. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));

const SCALARS: unknown[] = [
  0,
  1,
  -1,
  2,
  3.5,
  -0.5,
  10,
  100,
  '0',
  '1',
  '2',
  '10',
  '3.5',
  '',
  'a',
  'abc',
  'CO',
  'apple',
  ' 1 ',
  'true',
  true,
  false,
  null,
];
const LITERAL_ARRAYS: unknown[] = [[], [1, 2, 3], ['a', 'b'], [0], [''], [[1], [2]], ['CO', 'MX'], [true, false]];
const PATHS: unknown[] = [
  'a',
  'b',
  'c',
  'n',
  's',
  'flag',
  'arr',
  'nums',
  'strs',
  'obj',
  'obj.x',
  'obj.y',
  'obj.deep.z',
  'arr.0',
  'arr.1',
  'nums.2',
  'missing',
  'missing.x',
  'a.b',
  's.length',
  '',
  0,
  1,
  2,
  null,
];
const ITEM_PATHS: unknown[] = ['', 'qty', 'name', 'x', 'current', 'accumulator', 'current.qty', 'missing', 0];
const DOTTED = [
  '+.prototype.constructor',
  'cat.prototype.constructor',
  'var.prototype.constructor',
  '==.prototype.constructor.prototype.constructor',
  'var.length',
  'missing.name',
  '+.prototype',
  'nope.x',
  'if.prototype.constructor',
];

function literal(rng: Rng): unknown {
  const r = rng();
  if (r < 0.75) return pick(rng, SCALARS);
  if (r < 0.95) return structuredClone(pick(rng, LITERAL_ARRAYS));
  return { k1: pick(rng, SCALARS), k2: 1 }; // a multi-key object is a literal too
}

function varRule(rng: Rng, paths: readonly unknown[]): unknown {
  const path = pick(rng, paths);
  const r = rng();
  if (r < 0.4) return { var: path };
  if (r < 0.7) return { var: [path] };
  if (r < 0.9) return { var: [path, literal(rng)] };
  return { var: [] };
}

function args(rng: Rng, depth: number, inScope: boolean, min: number, max: number): unknown[] {
  return Array.from({ length: int(rng, min, max) }, () => rule(rng, depth + 1, inScope));
}

/** Arity mostly as the operator expects, sometimes one less or more (the reference defines those too). */
function arity(rng: Rng, usual: [number, number]): [number, number] {
  const r = rng();
  if (r < 0.85) return usual;
  if (r < 0.93) return [Math.max(0, usual[0] - 1), Math.max(0, usual[0] - 1)];
  return [usual[1] + 1, usual[1] + 1];
}

const USUAL: Record<string, [number, number]> = {
  '==': [2, 2],
  '===': [2, 2],
  '!=': [2, 2],
  '!==': [2, 2],
  '>': [2, 2],
  '>=': [2, 2],
  '<': [2, 3],
  '<=': [2, 3],
  '!': [1, 1],
  '!!': [1, 1],
  '%': [2, 2],
  '/': [2, 2],
  '-': [1, 2],
  '+': [0, 4],
  '*': [1, 4],
  min: [0, 4],
  max: [0, 4],
  cat: [0, 4],
  merge: [0, 4],
  in: [2, 2],
  substr: [2, 3],
  log: [1, 1],
  and: [1, 4],
  or: [1, 4],
  if: [0, 7],
  '?:': [3, 3],
};

function iteration(rng: Rng, op: string, depth: number): unknown {
  const source =
    rng() < 0.8 ? { var: pick(rng, ['nums', 'strs', 'arr', 'items', 'missing', 'obj', 's']) } : literal(rng);
  const scoped = rule(rng, depth + 1, true);
  if (op === 'reduce') {
    const reducer =
      rng() < 0.6 ? { [pick(rng, ['+', '*', 'max', 'cat'])]: [{ var: 'current' }, { var: 'accumulator' }] } : scoped;
    return rng() < 0.8 ? { reduce: [source, reducer, rule(rng, depth + 1, false)] } : { reduce: [source, reducer] };
  }
  if (rng() < 0.05) return { [op]: [source] };
  return { [op]: [source, scoped] };
}

function rule(rng: Rng, depth: number, inScope: boolean): unknown {
  if (depth >= 4 || rng() < 0.25) {
    return rng() < 0.55 ? varRule(rng, inScope ? ITEM_PATHS : PATHS) : literal(rng);
  }
  const r = rng();
  if (r < 0.02) return { [pick(rng, DOTTED)]: args(rng, depth, inScope, 0, 2) };
  if (r < 0.03)
    return {
      [pick(rng, ['bogus', 'toString', 'hasOwnProperty', '__defineGetter__'])]: args(rng, depth, inScope, 0, 2),
    };
  if (r < 0.05) return args(rng, depth, inScope, 0, 3); // an array of rules
  const op = pick(rng, OPERATOR_NAMES);
  switch (op) {
    case 'var':
      return varRule(rng, inScope ? ITEM_PATHS : PATHS);
    case 'missing': {
      const keys = Array.from({ length: int(rng, 0, 3) }, () => pick(rng, PATHS));
      const form = rng();
      if (form < 0.4) return { missing: keys };
      if (form < 0.6) return { missing: keys[0] ?? 'a' };
      if (form < 0.8) return { missing: { merge: [keys, { if: [{ var: 'flag' }, ['b'], []] }] } };
      return { missing: [keys, 'extra'] };
    }
    case 'missing_some': {
      const keys = Array.from({ length: int(rng, 0, 4) }, () => pick(rng, PATHS));
      const need = pick(rng, [0, 1, 2, 3, '1']);
      return rng() < 0.85
        ? { missing_some: [need, keys] }
        : { missing_some: [need, { var: pick(rng, ['strs', 'nums', 'missing', 'keys']) }] };
    }
    case 'map':
    case 'filter':
    case 'reduce':
    case 'all':
    case 'none':
    case 'some':
      return iteration(rng, op, depth);
    default: {
      const [min, max] = arity(rng, USUAL[op] ?? [0, 3]);
      const a = args(rng, depth, inScope, min, max);
      // The unary form `{"op": x}` instead of `{"op": [x]}`.
      if (a.length === 1 && rng() < 0.3 && !Array.isArray(a[0])) return { [op]: a[0] };
      return { [op]: a };
    }
  }
}

function data(rng: Rng): unknown {
  const r = rng();
  if (r < 0.04) return null;
  if (r < 0.06) return pick(rng, [1, 'abc', true, 0]);
  if (r < 0.08) return ['apple', ['banana', 'beer'], 3];
  const out: Record<string, unknown> = {};
  const maybe = (key: string, value: () => unknown) => {
    if (rng() < 0.8) out[key] = value();
  };
  maybe('a', () => (rng() < 0.3 ? { b: literal(rng) } : literal(rng)));
  maybe('b', () => literal(rng));
  maybe('c', () => literal(rng));
  maybe('n', () => pick(rng, [0, 1, 2, 5, -3, 0.5, '7', '']));
  maybe('s', () => pick(rng, ['', 'abc', 'CO', '12', 'apple pie']));
  maybe('flag', () => pick(rng, [true, false, 0, 1, '', 'yes', null]));
  maybe('arr', () => structuredClone(pick(rng, LITERAL_ARRAYS)));
  maybe('nums', () => Array.from({ length: int(rng, 0, 4) }, () => pick(rng, [0, 1, 2, 3, 7, -1, '4'])));
  maybe('strs', () =>
    Array.from({ length: int(rng, 0, 3) }, () => pick(rng, ['a', 'b', 'n', 's', 'missing', 'obj.x'])),
  );
  maybe('items', () =>
    Array.from({ length: int(rng, 0, 3) }, () => ({
      qty: int(rng, 0, 3),
      name: pick(rng, ['x', 'y', '']),
      x: literal(rng),
    })),
  );
  maybe('obj', () => ({
    x: literal(rng),
    y: rng() < 0.5 ? null : literal(rng),
    deep: rng() < 0.5 ? { z: literal(rng) } : null,
  }));
  maybe('keys', () => [{ var: 'a' }, 'b']);
  return out;
}

type Outcome = { value: unknown } | { threw: true };

/** Structural equality with Object.is on primitives (tells NaN, -0 and undefined apart). */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same((a as any)[k], (b as any)[k]))
    );
  }
  return false;
}

const show = (o: Outcome) =>
  'threw' in o
    ? 'a throw'
    : Object.is(o.value, -0)
      ? '-0'
      : o.value === undefined
        ? 'undefined'
        : (JSON.stringify(o.value) ?? String(o.value));

function run(fn: () => unknown): Outcome {
  try {
    return { value: fn() };
  } catch {
    return { threw: true };
  }
}

describe('compile() against json-logic-js apply() on generated rules and data', () => {
  let logSpy: jest.SpyInstance;
  beforeAll(() => {
    logSpy = jest.spyOn(console, 'log').mockImplementation(() => undefined); // the reference's `log` writes to the console
  });
  afterAll(() => logSpy.mockRestore());

  const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
  const PER_SEED = 2_500;

  it.each(SEEDS)('seed %i: the same value, or both throw, for every rule and datum', (seed) => {
    const rng = prng(seed);
    const covered = new Set<string>();
    let threw = 0;
    for (let i = 0; i < PER_SEED; i++) {
      const r = rule(rng, 0, false);
      const compiled = compile(r);
      for (let j = 0; j < 3; j++) {
        const d = data(rng);
        const expected = run(() => jsonLogic.apply(r as any, structuredClone(d)));
        const actual = run(() => compiled(structuredClone(d)));
        if ('threw' in expected) threw++;
        if (!same(actual, expected))
          throw new Error(
            `differs for rule ${JSON.stringify(r)} on ${JSON.stringify(d)}: compiled ${show(actual)}, reference ${show(expected)}`,
          );
      }
      JSON.stringify(r).replace(/"([^"]+)":/g, (_m, k) => (covered.add(k), ''));
    }
    // The generator reached every operator, and some rules throw in both.
    for (const op of OPERATOR_NAMES) expect([op, covered.has(op)]).toEqual([op, true]);
    expect(threw).toBeGreaterThan(0);
  });

  it('treats -0, NaN and undefined exactly like the reference', () => {
    for (const [r, d] of [
      [{ '-': [0] }, {}],
      [{ '*': [-1, 0] }, {}],
      [{ '+': ['x'] }, {}],
      [{ '/': [1, 0] }, {}],
      [{ and: [] }, {}],
      [{ '%': [{ var: 'n' }, 0] }, { n: 5 }],
      [{ min: [] }, {}],
    ] as const) {
      const expected = jsonLogic.apply(r as any, d);
      const actual = compile(r)(d);
      expect(Object.is(actual, expected)).toBe(true);
    }
  });

  it('throws where the reference throws, at evaluation, not at compilation', () => {
    const unknownInBranch = { if: [true, 1, { bogus: [] }] };
    expect(compile(unknownInBranch)({})).toBe(jsonLogic.apply(unknownInBranch as any, {}));
    expect(() => compile({ bogus: [] })({})).toThrow(/Unrecognized operation bogus/);
    expect(() => compile({ '*': [] })({})).toThrow();
    expect(() => compile({ missing_some: [1, null] })({})).toThrow();
  });
});
