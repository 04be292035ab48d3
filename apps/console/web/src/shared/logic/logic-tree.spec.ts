/// <reference types="node" />

import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from '@jest/globals';

import {
  ConditionNode,
  defaultValue,
  fromTree,
  GroupNode,
  jsonEqual,
  LogicNode,
  newCondition,
  operatorsFor,
  parseList,
  parseScalar,
  toTree,
  updateAt,
} from './logic-tree';

/** The rules of the official JSON-Logic test suite (a copy of its tests.json kept in libs/json-logic). */
function officialRules(): unknown[] {
  const file = path.resolve(__dirname, '../../../../../../libs/json-logic/src/compiler/fixtures/jsonlogic-tests.json');
  const cases = JSON.parse(readFileSync(file, 'utf8')) as unknown[];
  return cases.filter((c): c is unknown[] => Array.isArray(c)).map((c) => c[0]);
}

/** Deterministic pseudo-random rules mixing drawable and undrawable shapes, nested. */
function generatedRules(count: number): unknown[] {
  let seed = 42;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor(seed / 65_536) % n;
  };
  const literals: unknown[] = ['CO', '', 0, 0.5, -3, true, false, null, 'a,b', '2026-01-31'];
  const names = ['country', 'score', 'status', 'flags', 'missing.var', 'a'];
  const lit = () => literals[rnd(literals.length)];
  const v = () => (rnd(8) === 0 ? { var: [names[rnd(names.length)], lit()] } : { var: names[rnd(names.length)] });
  const leaf = (): unknown => {
    switch (rnd(12)) {
      case 0:
        return { [['==', '!=', '===', '!==', '<', '<=', '>', '>='][rnd(8)]]: [v(), lit()] };
      case 1:
        return { '<=': [lit(), v(), lit()] };
      case 2:
        return { in: [v(), [lit(), lit()]] };
      case 3:
        return { in: [lit(), v()] };
      case 4:
        return { '!!': [v()] };
      case 5:
        return { '!': v() }; // not the array form: kept raw
      case 6:
        return { '==': [lit(), v()] }; // literal first: kept raw
      case 7:
        return { '>': [v(), v()] };
      case 8:
        return { if: [v(), lit(), lit()] };
      case 9:
        return { '+': [v(), 1] };
      case 10:
        return lit();
      default:
        return { '<': [v(), lit(), lit()] };
    }
  };
  const node = (depth: number): unknown => {
    if (depth > 3 || rnd(3) === 0) return leaf();
    const children = Array.from({ length: rnd(4) }, () => node(depth + 1));
    const group = { [rnd(2) ? 'and' : 'or']: children };
    return rnd(5) === 0 ? { '!': [group] } : group;
  };
  return Array.from({ length: count }, () => node(0));
}

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

describe('JSON-Logic ↔ tree', () => {
  it.each([
    ['every rule of the official JSON-Logic test suite', officialRules()],
    ['2,000 generated nested rules', generatedRules(2_000)],
  ])('gives back exactly the rule it was given: %s', (_name, rules) => {
    expect(rules.length).toBeGreaterThan(100);
    for (const rule of rules) {
      const before = clone(rule);
      const back = fromTree(toTree(rule));
      expect([rule, back]).toEqual([rule, rule]);
      expect(rule).toEqual(before); // the input is not changed
    }
  });

  it('draws most of the generated rules, not only keeps them (the round trip above is not all raw)', () => {
    const kinds = { group: 0, condition: 0, raw: 0 };
    const count = (node: LogicNode) => {
      kinds[node.kind] += 1;
      if (node.kind === 'group') node.children.forEach(count);
    };
    generatedRules(2_000).forEach((rule) => count(toTree(rule)));
    expect(kinds.group).toBeGreaterThan(1_000);
    expect(kinds.condition).toBeGreaterThan(1_000);
    expect(kinds.raw).toBeGreaterThan(1_000);
  });

  it('draws the shapes it knows as groups and conditions', () => {
    const rule = {
      and: [
        { '==': [{ var: 'country' }, 'CO'] },
        { '<': [{ var: 'score' }, 0.5] },
        { '<=': [0.2, { var: 'id_score' }, 0.8] },
        { in: [{ var: 'status' }, ['completed', 'error']] },
        { in: ['SAS', { var: 'company_name' }] },
        { '!!': [{ var: 'custom_input' }] },
        { '!': [{ var: 'continuous_check_id' }] },
        { '!': [{ or: [{ '===': [{ var: 'type' }, 'vehicle'] }] }] },
      ],
    };
    const tree = toTree(rule) as GroupNode;
    expect(tree).toMatchObject({ kind: 'group', op: 'and', not: false });
    expect(tree.children.map((c) => (c.kind === 'condition' ? c.operator : c.kind))).toEqual([
      '==',
      '<',
      'between',
      'in',
      'contains',
      'set',
      'unset',
      'group',
    ]);
    expect(tree.children[2]).toMatchObject({ variable: 'id_score', value: [0.2, 0.8] });
    expect(tree.children[7]).toMatchObject({ kind: 'group', op: 'or', not: true });
    expect(fromTree(tree)).toEqual(rule);
  });

  it('keeps what it cannot draw as raw JSON, inside drawn groups too', () => {
    const raw = [
      { if: [{ var: 'a' }, 1, 2] },
      { '==': ['CO', { var: 'country' }] },
      { '==': [{ var: ['country', 'XX'] }, 'CO'] },
      { '!': { var: 'a' } },
      { '==': [{ var: 'a' }, { var: 'b' }] },
      { '==': [{ var: 'a' }, [1]] },
      { and: true },
      { '==': [{ var: 'a' }, 1], extra: 1 },
      null,
      'text',
      { '!': [{ '!': [{ and: [] }] }] },
    ];
    for (const rule of raw) expect(toTree(rule)).toEqual({ kind: 'raw', json: rule });
    const mixed = { or: [...raw, { '>': [{ var: 'score' }, 1] }] };
    const tree = toTree(mixed) as GroupNode;
    expect(tree.kind).toBe('group');
    expect(tree.children.filter((c) => c.kind === 'raw')).toHaveLength(raw.length);
    expect(fromTree(tree)).toEqual(mixed);
  });

  it('starts an absent rule as an empty "and" group', () => {
    expect(toTree(undefined)).toEqual({ kind: 'group', op: 'and', not: false, children: [] });
    expect(fromTree(toTree(undefined))).toEqual({ and: [] });
  });

  it('compares JSON regardless of key order', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
  });
});

describe('editing the tree', () => {
  const rule = { and: [{ '==': [{ var: 'country' }, 'CO'] }, { or: [{ '<': [{ var: 'score' }, 0.5] }] }] };

  it('replaces, adds and removes nodes by path, leaving the rest untouched', () => {
    const tree = toTree(rule);
    const changed = updateAt(tree, [1, 0], (n) => ({ ...(n as ConditionNode), value: 0.7 }));
    expect(fromTree(changed)).toEqual({
      and: [{ '==': [{ var: 'country' }, 'CO'] }, { or: [{ '<': [{ var: 'score' }, 0.7] }] }],
    });
    const removed = updateAt(tree, [0], () => undefined);
    expect(fromTree(removed)).toEqual({ and: [{ or: [{ '<': [{ var: 'score' }, 0.5] }] }] });
    const added = updateAt(tree, [], (n) => ({
      ...(n as GroupNode),
      children: [...(n as GroupNode).children, newCondition({ name: 'rule_depth', type: 'number' })],
    }));
    expect(fromTree(added)).toEqual({ and: [...rule.and, { '==': [{ var: 'rule_depth' }, 0] }] });
    expect(fromTree(tree)).toEqual(rule); // the original tree is not mutated
  });

  it('offers the operators that fit each type', () => {
    expect(operatorsFor('boolean')).toEqual(['==', '!=', '===', '!==', 'set', 'unset']);
    expect(operatorsFor('array')).toEqual(['contains', 'set', 'unset']);
    expect(operatorsFor('number')).toContain('between');
    expect(operatorsFor('string')).toContain('in');
    expect(operatorsFor('date')).not.toContain('contains');
  });

  it('turns typed text into values of the variable type, and keeps what fits when the operator changes', () => {
    expect(parseScalar('number', ' 0.75 ')).toBe(0.75);
    expect(parseScalar('number', 'abc')).toBe('abc');
    expect(parseScalar('string', '007')).toBe('007');
    expect(parseScalar('boolean', 'false')).toBe(false);
    expect(parseList('number', '1, 2,,x')).toEqual([1, 2, 'x']);
    expect(defaultValue('string', 'in', 'CO')).toEqual(['CO']);
    expect(defaultValue('number', 'between', 1)).toEqual([0, 0]);
    expect(defaultValue('number', '>', [3, 4])).toBe(3);
    expect(defaultValue('boolean', '==', 'x')).toBe(true);
    expect(defaultValue('string', 'set', 'x')).toBeUndefined();
  });

  it('writes every new condition as a rule it draws again the same way', () => {
    const types = ['string', 'number', 'boolean', 'date', 'array'] as const;
    for (const type of types)
      for (const operator of operatorsFor(type)) {
        const node: LogicNode = {
          kind: 'condition',
          variable: 'x',
          operator,
          value: defaultValue(type, operator),
        };
        expect(toTree(fromTree(node))).toEqual(node);
      }
  });
});
