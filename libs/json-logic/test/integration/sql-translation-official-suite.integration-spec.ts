import { closeDb } from '@kyc/testing';
import jsonLogic from 'json-logic-js';

import { JsonLogicSqlError } from '../../src/sql/sql-translation.error';
import { cases, evaluate, operators, sameJson, supported } from './sql-translation-fixture';

describe('JSON-Logic to SQL on PostgreSQL: the official test suite', () => {
  afterAll(() => closeDb());

  const translatable = cases.filter(([rule]) => [...operators(rule)].every((op) => supported.has(op)));
  const refused = cases.filter((c) => !translatable.includes(c));

  it('covers the suite: every supported operator appears in it', () => {
    const used = new Set(translatable.flatMap(([rule]) => [...operators(rule)]));
    expect([...supported].filter((op) => !used.has(op))).toEqual([]);
    expect(translatable.length).toBeGreaterThan(120);
  });

  it.each(translatable.map((c) => [JSON.stringify(c[0]), JSON.stringify(c[1]), c]))(
    '%s with data %s gives the expected value and truthiness',
    async (_r, _d, c) => {
      const [rule, data, expected] = c;
      const result = await evaluate(rule, data, true);
      if (result instanceof JsonLogicSqlError) throw result;
      expect(sameJson(jsonLogic.apply(rule as never, data), expected)).toBe(true);
      expect(result.value).toEqual(expected);
      expect(result.where).toBe(jsonLogic.truthy(expected));
    },
  );

  it.each(refused.map((c) => [JSON.stringify(c[0]), c]))(
    'refuses %s (an operator outside the subset)',
    async (_r, c) => {
      const [rule, data] = c;
      const result = await evaluate(rule, data, true);
      expect(result).toBeInstanceOf(JsonLogicSqlError);
      expect((result as Error).message).toMatch(
        /operator ".+" is not supported|needs literal field names|a field name must be a literal/,
      );
    },
  );

  it('with every field untyped (jsonb), each supported case is translated exactly or refused for a named coercion', async () => {
    let exact = 0;
    for (const [rule, data, expected] of translatable) {
      const result = await evaluate(rule, data, false);
      if (result instanceof JsonLogicSqlError) {
        expect(result.message).toMatch(/does not reproduce/);
        continue;
      }
      expect([JSON.stringify(rule), result.value]).toEqual([JSON.stringify(rule), expected]);
      expect(result.where).toBe(jsonLogic.truthy(expected));
      exact++;
    }
    expect(exact).toBeGreaterThan(translatable.length - 5);
  });
});
