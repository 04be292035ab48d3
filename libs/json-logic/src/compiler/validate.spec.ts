import { describeIssues, validate, validateJson } from './validate';

const problems = (rule: unknown) => {
  const r = validate(rule);
  return r.valid ? [] : r.errors;
};

describe('validate', () => {
  it('accepts literals, arrays and every json-logic-js operator used with a sensible arity', () => {
    for (const rule of [
      true,
      0,
      'text',
      null,
      [1, 'a'],
      { and: [{ '==': [{ var: 'country' }, 'CO'] }, { '>=': [{ var: 'score' }, 0.5] }] },
      { if: [] },
      { '<': [1, { var: 'x' }, 3] },
      { missing_some: [1, ['a', 'b']] },
      { reduce: [{ var: 'xs' }, { '+': [{ var: 'current' }, { var: 'accumulator' }] }, 0] },
      { substr: ['abc', 1] },
      { var: [] },
      { '!': [[]] },
    ])
      expect([rule, problems(rule)]).toEqual([rule, []]);
  });

  it('refuses an unknown operator and says where it is', () => {
    expect(problems({ and: [true, { foo: [1] }] })).toEqual([
      { path: 'and[1].foo', message: 'unknown operator "foo"' },
    ]);
  });

  it('refuses dotted operator paths and custom operators', () => {
    expect(problems({ '+.prototype.constructor': [1, 2] })[0].message).toMatch(/unknown operator/);
    expect(problems({ toString: [] })[0].message).toMatch(/unknown operator/);
    expect(problems({ __proto__: null, hasOwnProperty: [1] })[0].message).toMatch(/unknown operator/);
  });

  it('refuses wrong arities where they are clear', () => {
    expect(problems({ '==': [1] })).toEqual([{ path: '==', message: '== takes 2 arguments, got 1' }]);
    expect(problems({ '<': [1, 2, 3, 4] })[0].message).toBe('< takes 2 to 3 arguments, got 4');
    expect(problems({ '!': [1, 2] })[0].message).toBe('! takes 1 argument, got 2');
    expect(problems({ '*': [] })[0].message).toBe('* takes at least 1 argument, got 0');
    expect(problems({ '?:': [true, 1] })[0].message).toBe('?: takes 3 arguments, got 2');
    expect(problems({ filter: [{ var: 'xs' }] })[0].message).toBe('filter takes 2 arguments, got 1');
  });

  it('refuses objects that are not one-key operations', () => {
    expect(problems({})[0].message).toMatch(/exactly one key/);
    expect(problems({ '==': [1, 1], '!=': [1, 2] })[0].message).toMatch(/exactly one key.*"==", "!="/);
  });

  it('refuses values JSON cannot hold', () => {
    expect(problems({ '+': [1, Number.NaN] })).toEqual([{ path: '+[1]', message: 'is not a JSON number' }]);
    expect(problems({ '+': [1, undefined] })[0].message).toBe('is not a JSON value');
    expect(problems(new Date())[0].message).toBe('is not a JSON value');
  });

  it('reports every problem, not only the first', () => {
    expect(problems({ or: [{ nope: 1 }, { '==': [1] }, { var: 'a' }] }).map((p) => p.path)).toEqual([
      'or[0].nope',
      'or[1].==',
    ]);
  });

  it('bounds depth and size', () => {
    let deep: unknown = true;
    for (let i = 0; i < 100; i++) deep = { '!': [deep] };
    expect(problems(deep)[0].message).toMatch(/nested more than 64/);
    expect(problems({ cat: Array.from({ length: 6000 }, () => 'x') })[0].message).toMatch(/more than 5000 nodes/);
  });

  it('validateJson refuses text that is not JSON and validates the rest', () => {
    expect(validateJson('{"==": [1, ')).toMatchObject({
      valid: false,
      errors: [{ path: '', message: expect.stringMatching(/^is not valid JSON/) }],
    });
    expect(validateJson('{"==": [{"var": "country"}, "CO"]}')).toEqual({
      valid: true,
      rule: { '==': [{ var: 'country' }, 'CO'] },
    });
    expect(validateJson('{"bogus": 1}')).toMatchObject({ valid: false });
  });

  it('describes issues on one line', () => {
    expect(
      describeIssues([
        { path: '', message: 'is not valid JSON' },
        { path: 'and[0].x', message: 'unknown operator "x"' },
      ]),
    ).toBe('is not valid JSON; and[0].x: unknown operator "x"');
  });
});
