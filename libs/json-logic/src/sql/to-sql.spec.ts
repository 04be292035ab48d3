import { accessRulesWhere } from './access-rules';
import { JsonLogicSqlError } from './sql-translation.error';
import { assertSqlTranslatable, parseJsonRule, SqlFieldMap, toSql, toSqlValue } from './to-sql';

const fields: SqlFieldMap = {
  country: 'c.country',
  score: { sql: 'c.score', type: 'number' },
  tags: { sql: 'c.tags', type: 'json' },
};

const refusal = (rule: unknown, map: SqlFieldMap = fields) => {
  try {
    toSql(rule, map);
  } catch (err) {
    expect(err).toBeInstanceOf(JsonLogicSqlError);
    return (err as Error).message;
  }
  throw new Error(`translated ${JSON.stringify(rule)}`);
};

describe('toSql (JSON-Logic → SQL WHERE fragment)', () => {
  it('reads whitelisted fields and passes literals as parameters, never in the SQL text', () => {
    const { sql, params } = toSql({ '==': [{ var: 'country' }, "CO'; DROP TABLE x; --"] }, fields);
    expect(sql).toContain('c.country');
    expect(sql).toContain('$1');
    expect(sql).not.toContain('DROP');
    expect(params).toEqual(["CO'; DROP TABLE x; --"]);
  });

  it('numbers parameters from firstParam, or names them for TypeORM', () => {
    expect(toSql({ '>': [{ var: 'score' }, 0.5] }, fields, { firstParam: 4 }).sql).toMatch(/\$4/);
    const named = toSql({ in: [{ var: 'country' }, ['CO', 'MX']] }, fields, { namedPrefix: 'ar' });
    expect(named.params).toEqual({ ar0: 'CO', ar1: 'MX' });
    expect(named.sql).toContain(':ar0');
    expect(named.sql).not.toMatch(/\$\d/);
  });

  it('keeps only the parameters the SQL uses, once each', () => {
    const { sql, params } = toSql(
      { or: [{ '==': [{ var: 'country' }, 'CO'] }, { '==': [{ var: 'country' }, 'CO'] }] },
      fields,
    );
    expect(params).toEqual(['CO', 'CO']);
    expect(sql.match(/\$\d+/g)?.sort()).toEqual(['$1', '$2']);
  });

  it('refuses fields outside the whitelist, naming the known ones', () => {
    expect(refusal({ '==': [{ var: 'password' }, 'x'] })).toMatch(
      /unknown field "password" \(fields: country, score, tags\)/,
    );
  });

  it('refuses operators outside the subset, and unknown operators', () => {
    expect(refusal({ cat: ['a', 'b'] })).toMatch(/operator "cat" is not supported/);
    expect(refusal({ and: [true, { if: [true, 1, 2] }] })).toMatch(/^and\[1\]\.if: operator "if" is not supported/);
    expect(refusal({ frobnicate: [1] })).toMatch(/unknown operator "frobnicate"/);
    expect(refusal({ 'Math.max': [1] })).toMatch(/not supported/);
  });

  it('refuses malformed rules', () => {
    expect(refusal({ '==': [1] })).toMatch(/"==" takes 2 arguments, got 1/);
    expect(refusal({ '<': [1, 2, 3, 4] })).toMatch(/"<" takes 2 or 3 arguments/);
    expect(refusal({ and: [] })).toMatch(/at least one argument/);
    expect(refusal({ a: 1, b: 2 })).toMatch(/exactly one operator/);
    expect(refusal({})).toMatch(/exactly one operator, found none/);
    expect(refusal({ var: [{ var: 'x' }] })).toMatch(/field name must be a literal/);
    expect(refusal({ missing: [{ merge: ['a'] }] })).toMatch(/needs literal field names/);
    expect(refusal({ '==': ['\u0000', 'x'] })).toMatch(/NUL/);
    expect(refusal({ '==': ['\ud800', 'x'] })).toMatch(/surrogates/);
  });

  it('refuses coercions PostgreSQL cannot reproduce exactly, instead of approximating them', () => {
    // Text field against a number: JavaScript converts the field's text to a number.
    expect(refusal({ '==': [{ var: 'country' }, 1] })).toMatch(/text-to-number conversion/);
    expect(refusal({ '<': [{ var: 'country' }, 5] })).toMatch(/text-to-number conversion/);
    // A list field against a string: JavaScript joins the list into text.
    expect(refusal({ '==': [{ var: 'tags' }, 'a'] })).toMatch(/list to text/);
    // A number field searched in a string: JavaScript's number formatting.
    expect(refusal({ in: [{ var: 'score' }, 'a 0.5 b'] })).toMatch(/conversion of it to text/);
  });

  it('translates the same shapes when the other side is a constant it can convert at translation time', () => {
    expect(() => toSql({ '==': [{ var: 'score' }, '0.5'] }, fields)).not.toThrow();
    expect(() => toSql({ '<': [{ var: 'country' }, 'M'] }, fields)).not.toThrow();
    expect(() => toSql({ '===': [{ var: 'tags' }, 'a'] }, fields)).not.toThrow();
    expect(() => toSql({ in: ['vip', { var: 'tags' }] }, fields)).not.toThrow();
  });

  it('refuses rules nested too deep', () => {
    let rule: unknown = true;
    for (let i = 0; i < 60; i++) rule = { '!': [rule] };
    expect(refusal(rule)).toMatch(/nested deeper/);
  });

  it('gives values for toSqlValue (jsonb) and conditions for toSql (boolean)', () => {
    expect(toSqlValue({ var: 'country' }, fields).sql).toMatch(/to_jsonb/);
    expect(toSql(true, fields)).toEqual({ sql: 'TRUE', params: [] });
    expect(toSql(null, fields)).toEqual({ sql: 'FALSE', params: [] });
  });
});

describe('assertSqlTranslatable and parseJsonRule (validation on save)', () => {
  const types = { country: 'string', score: 'number' } as const;

  it('accepts a translatable rule over the given field types', () => {
    expect(() =>
      assertSqlTranslatable(
        parseJsonRule('{"and":[{"==":[{"var":"country"},"CO"]},{">=":[{"var":"score"},0.7]}]}'),
        types,
      ),
    ).not.toThrow();
  });

  it('refuses invalid JSON, unknown fields and untranslatable shapes', () => {
    expect(() => parseJsonRule('{"==":[')).toThrow(/not valid JSON/);
    expect(() => assertSqlTranslatable({ '==': [{ var: 'nope' }, 1] }, types)).toThrow(/unknown field "nope"/);
    expect(() => assertSqlTranslatable({ '==': [{ var: 'country' }, 1] }, types)).toThrow(JsonLogicSqlError);
  });
});

describe('accessRulesWhere (all of a role access rules)', () => {
  it('is TRUE without rules', () => {
    expect(accessRulesWhere([], fields)).toEqual({ sql: 'TRUE', params: [] });
    expect(accessRulesWhere(undefined, fields)).toEqual({ sql: 'TRUE', params: [] });
  });

  it('joins the rules with AND and numbers their parameters in one sequence', () => {
    const where = accessRulesWhere([{ '==': [{ var: 'country' }, 'CO'] }, '{">":[{"var":"score"},0.5]}'], fields, {
      firstParam: 3,
    });
    expect(where.sql).toMatch(/^\(.+ AND .+\)$/);
    expect(where.sql).toContain('$3');
    expect(where.sql).toContain('$4');
    expect(where.params).toEqual(['CO', '0.5']);
  });

  it('turns a rule that does not translate into FALSE (denies) and reports it', () => {
    const refused: unknown[] = [];
    const where = accessRulesWhere([{ '==': [{ var: 'gone' }, 1] }, '{oops'], fields, {
      onRefused: (_e, rule) => refused.push(rule),
    });
    expect(where).toEqual({ sql: '(FALSE AND FALSE)', params: [] });
    expect(refused).toHaveLength(2);
  });
});
