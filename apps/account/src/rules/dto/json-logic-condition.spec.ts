import { conditionProblem, parseCondition } from './json-logic-condition';

describe('rule conditions', () => {
  it('accepts JSON-Logic as an object or as JSON text', () => {
    expect(conditionProblem({ '==': [{ var: 'country' }, 'CO'] })).toBeUndefined();
    expect(conditionProblem('{"==": [{"var": "country"}, "CO"]}')).toBeUndefined();
    expect(conditionProblem(true)).toBeUndefined();
    expect(parseCondition('{"!": [true]}')).toEqual({ '!': [true] });
  });

  it('says what is wrong', () => {
    expect(conditionProblem(undefined)).toBe('is required');
    expect(conditionProblem('{"a":')).toMatch(/^is not valid JSON/);
    expect(conditionProblem({ or: [{ '>': [1] }, { lol: [] }] })).toBe(
      'is not valid JSON-Logic: or[0].>: > takes 2 arguments, got 1; or[1].lol: unknown operator "lol"',
    );
    expect(conditionProblem([true])).toBe('must be a JSON-Logic expression, not a list');
    expect(conditionProblem('x'.repeat(70_000))).toMatch(/at most 65536/);
  });
});
