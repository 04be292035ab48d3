import { closeDb, db, harness } from '@kyc/testing';
import jsonLogic from 'json-logic-js';
import { DataSource } from 'typeorm';

import { accessRulesWhere } from '../../src/sql/access-rules';
import { JsonLogicSqlError } from '../../src/sql/sql-translation.error';
import { SqlField, SqlFieldMap, toSql, toSqlValue } from '../../src/sql/to-sql';

describe('JSON-Logic to SQL on PostgreSQL: corner cases, generated rules and access rules', () => {
  afterAll(() => closeDb());

  // mulberry32: a small seeded generator, so a failure is reproducible.
  const rng = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random = rng(20251122);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

  const STRINGS = [
    '',
    '0',
    '1',
    '2',
    '10',
    ' 1 ',
    '1e3',
    '0x10',
    '-0',
    'abc',
    'ab',
    'A',
    'a',
    'b',
    'null',
    'true',
    'false',
    'a,b',
    '[object Object]',
    'Infinity',
    'ß',
    'é',
    'co',
    'CO',
    '\uffff',
    '\ue000',
    'a\uff21',
    '😀',
    'a😀',
    '𝒜',
  ];
  const NUMBERS = [0, 1, 2, 3, 10, -1, 0.5, 1e21, 1e-7, 100, 2.5];
  const LISTS = [[], [1], ['a'], [1, 2], [[]], ['a', 'b'], [null], [0], ['1']];
  const OBJECTS = [{}, { a: 1 }];
  const FIELDS: Record<string, SqlField['type']> = {
    s1: 'string',
    s2: 'string',
    n1: 'number',
    n2: 'number',
    b1: 'boolean',
    j1: 'json',
    j2: 'json',
  };

  const scalarOf = (type: SqlField['type']): unknown =>
    type === 'string'
      ? pick(STRINGS)
      : type === 'number'
        ? pick(NUMBERS)
        : type === 'boolean'
          ? pick([true, false])
          : pick<unknown>([...STRINGS, ...NUMBERS, true, false, null, ...LISTS, ...OBJECTS]);

  const literal = (): unknown =>
    pick<() => unknown>([
      () => pick(STRINGS),
      () => pick(NUMBERS),
      () => pick([true, false]),
      () => null,
      () => pick(LISTS),
    ])();

  function rule(depth: number): unknown {
    if (depth <= 0 || random() < 0.25) {
      if (random() < 0.55) {
        const name = pick(Object.keys(FIELDS));
        return random() < 0.2 ? { var: [name, literal()] } : { var: name };
      }
      return literal();
    }
    const op = pick([
      '==',
      '===',
      '!=',
      '!==',
      '<',
      '<=',
      '>',
      '>=',
      '<3',
      '!',
      '!!',
      'and',
      'or',
      'in',
      'in',
      'missing',
      'list',
    ]);
    switch (op) {
      case '!':
      case '!!':
        return { [op]: [rule(depth - 1)] };
      case 'and':
      case 'or':
        return { [op]: Array.from({ length: 1 + Math.floor(random() * 3) }, () => rule(depth - 1)) };
      case '<3':
        return { [pick(['<', '<='])]: [rule(depth - 1), rule(depth - 1), rule(depth - 1)] };
      case 'in':
        return { in: [rule(depth - 1), random() < 0.5 ? [rule(depth - 1), literal()] : rule(depth - 1)] };
      case 'missing':
        return { missing: Object.keys(FIELDS).filter(() => random() < 0.4) };
      case 'list':
        return [rule(depth - 1), literal()];
      default:
        return { [op]: [rule(depth - 1), rule(depth - 1)] };
    }
  }

  /** A record: each field holds a value of its type or is absent (NULL); json fields may also hold null. */
  const record = (): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(FIELDS).flatMap(([name, type]) => (random() < 0.2 ? [] : [[name, scalarOf(type)]])),
    );

  const fields: SqlFieldMap = Object.fromEntries(
    Object.entries(FIELDS).map(([name, type]) => [
      name,
      { sql: type === 'json' ? `(d.doc -> '${name}')` : `(d.doc ->> '${name}')`, type },
    ]),
  );

  const run = async (r: unknown, records: Record<string, unknown>[]) => {
    const value = toSqlValue(r, fields, { firstParam: 2 });
    const where = toSql(r, fields, { firstParam: 2 + value.params.length });
    const { rows } = await db().query(
      `SELECT d.i, ${value.sql} AS value, ${where.sql} AS where_ok FROM jsonb_array_elements(CAST($1 AS jsonb)) WITH ORDINALITY AS d(doc, i) ORDER BY d.i`,
      [JSON.stringify(records), ...value.params, ...where.params],
    );
    return rows.map((row) => ({ value: JSON.stringify(row.value), where: row.where_ok as boolean }));
  };

  // Coercion corner cases, each against json-logic-js (and the value JavaScript gives, spelled out).
  it.each<[unknown, Record<string, unknown>, unknown]>([
    [{ '<': ['\uffff', '😀'] }, {}, false],
    [{ '<': [{ var: 's1' }, '😀'] }, { s1: '\uffff' }, false],
    [{ '>': [{ var: 's1' }, '\ue000'] }, { s1: '𝒜' }, false],
    [{ '<': [{ var: 's1' }, 'b'] }, { s1: 'B' }, true],
    [{ '<=': [{ var: 's1' }, 'a'] }, {}, false],
    [{ '<': [{ var: 's1' }, [2]] }, { s1: '10' }, true],
    [{ '<': [{ var: 'n1' }, '1e3'] }, { n1: 999 }, true],
    [{ '==': [{ var: 'n1' }, '0x10'] }, { n1: 16 }, true],
    [{ '==': [{ var: 'n1' }, ' 1 '] }, { n1: 1 }, true],
    [{ '==': [{ var: 'b1' }, '1'] }, { b1: true }, true],
    [{ '==': [{ var: 'b1' }, ''] }, { b1: false }, true],
    [{ '==': [{ var: 'n1' }, null] }, {}, true],
    [{ '==': [{ var: 'n1' }, 0] }, {}, false],
    [{ '<=': [{ var: 'n1' }, 0] }, {}, true],
    [{ '==': [[1, 2], '1,2'] }, {}, true],
    [{ '==': [{ var: 's1' }, [1]] }, { s1: '1' }, true],
    [{ '==': [{ var: 'n1' }, []] }, { n1: 0 }, true],
    [{ '===': [{ var: 'j1' }, { var: 'j1' }] }, { j1: [1] }, true],
    [{ '===': [{ var: 'j1' }, { var: 'j2' }] }, { j1: [1], j2: [1] }, false],
    [{ in: [{ var: 'j1' }, [{ var: 'j1' }]] }, { j1: { a: 1 } }, true],
    [{ in: [null, 'a null b'] }, {}, true],
    [{ in: [{ var: 'b1' }, 'is true'] }, { b1: true }, true],
    [{ in: ['', ''] }, {}, false],
    [{ in: [{ var: 's1' }, { var: 'j1' }] }, { s1: 'b', j1: ['a', 'b'] }, true],
    [{ in: [{ var: 's1' }, { var: 'j1' }] }, { s1: '1', j1: [1] }, false],
    [{ in: [{ var: 's1' }, { var: 'j1' }] }, { s1: 'bc', j1: 'abcd' }, true],
    [{ var: ['s1', 'default'] }, {}, 'default'],
    [{ var: ['j1', 'default'] }, { j1: null }, null],
    [{ missing: ['s1', 'j1', 'n1'] }, { s1: '', j1: null, n1: 0 }, ['s1', 'j1']],
    [{ and: [{ var: 'n1' }, { var: 's1' }] }, { n1: 0, s1: 'x' }, 0],
    [{ or: [{ var: 'j1' }, 'fallback'] }, { j1: [] }, 'fallback'],
    [{ '!!': [{ var: 'j1' }] }, { j1: {} }, true],
  ])('%j with %j gives %j', async (r, data, expected) => {
    expect(JSON.stringify(jsonLogic.apply(r as never, data))).toBe(JSON.stringify(expected));
    expect(await run(r, [data])).toEqual([{ value: JSON.stringify(expected), where: jsonLogic.truthy(expected) }]);
  });

  it('translates each generated rule exactly or refuses it (4,000 rules × 4 records)', async () => {
    let translated = 0;
    let refusedCount = 0;
    for (let n = 0; n < 4000; n++) {
      const r = rule(3);
      const records = Array.from({ length: 4 }, record);
      let results: Awaited<ReturnType<typeof run>>;
      try {
        results = await run(r, records);
      } catch (err) {
        if (!(err instanceof JsonLogicSqlError)) throw err;
        refusedCount++;
        continue;
      }
      translated++;
      results.forEach((got, i) => {
        const expected = jsonLogic.apply(r as never, records[i]);
        expect({ rule: JSON.stringify(r), data: JSON.stringify(records[i]), ...got }).toEqual({
          rule: JSON.stringify(r),
          data: JSON.stringify(records[i]),
          value: JSON.stringify(expected),
          where: jsonLogic.truthy(expected),
        });
      });
    }
    // The generator aims at coercion corner cases; most rules must still translate.
    expect(translated).toBeGreaterThan(2000);
    expect(refusedCount).toBeGreaterThan(0);
  });

  it('combines access rules with AND, fails closed on a rule that does not translate, and filters real rows', async () => {
    const table = `(VALUES ('CO', 0.9), ('BR', 0.2), ('CO', 0.1), (NULL, 0.8)) AS c(country, score)`;
    const map: SqlFieldMap = { country: 'c.country', score: { sql: 'c.score', type: 'number' } };
    const run = async (rules: unknown[]) => {
      const refusedRules: unknown[] = [];
      const where = accessRulesWhere(rules, map, { onRefused: (_e, rule) => refusedRules.push(rule) });
      const { rows } = await db().query(
        `SELECT c.country, c.score FROM ${table} WHERE ${where.sql} ORDER BY c.score`,
        where.params,
      );
      return { rows: rows.map((r) => `${r.country}:${r.score}`), refused: refusedRules.length };
    };
    expect(await run([])).toEqual({ rows: ['CO:0.1', 'BR:0.2', 'null:0.8', 'CO:0.9'], refused: 0 });
    expect(await run([{ '==': [{ var: 'country' }, 'CO'] }])).toEqual({ rows: ['CO:0.1', 'CO:0.9'], refused: 0 });
    expect(await run(['{"==":[{"var":"country"},"CO"]}', { '>': [{ var: 'score' }, 0.5] }])).toEqual({
      rows: ['CO:0.9'],
      refused: 0,
    });
    expect(await run([{ in: [{ var: 'country' }, ['BR', 'CO']] }, { '<': [{ var: 'score' }, '0.5'] }])).toEqual({
      rows: ['CO:0.1', 'BR:0.2'],
      refused: 0,
    });
    expect(await run([{ '!': { var: 'country' } }])).toEqual({ rows: ['null:0.8'], refused: 0 });
    expect(await run([{ '==': [{ var: 'national_id' }, '1'] }, true])).toEqual({ rows: [], refused: 1 });
    expect(await run(['{not json'])).toEqual({ rows: [], refused: 1 });
  });

  it('works in a TypeORM query builder with named parameters, next to its own', async () => {
    await db().query(`CREATE SCHEMA IF NOT EXISTS jl_sql_test`);
    await db().query(
      `CREATE TABLE IF NOT EXISTS jl_sql_test.records (tenant_id text, country text, score double precision, inputs jsonb)`,
    );
    await db().query(`TRUNCATE jl_sql_test.records`);
    await db().query(
      `INSERT INTO jl_sql_test.records VALUES ('t1', 'CO', 0.9, '{"national_id":"1"}'), ('t1', 'MX', 0.8, '{"national_id":"2"}'), ('t1', 'CO', 0.1, '{}'), ('t2', 'CO', 0.9, '{}')`,
    );
    const ds = await new DataSource({ type: 'postgres', url: harness().databaseUrl }).initialize();
    try {
      const where = accessRulesWhere(
        [
          '{"in":[{"var":"country"},["CO","PE"]]}',
          { '>': [{ var: 'score' }, 0.5] },
          { '!': { missing: ['national_id'] } },
        ],
        { country: 'r.country', score: { sql: 'r.score', type: 'number' }, national_id: "r.inputs->>'national_id'" },
        { namedPrefix: 'ar' },
      );
      const rows = await ds
        .createQueryBuilder()
        .select('r.country', 'country')
        .addSelect('r.score', 'score')
        .from('jl_sql_test.records', 'r')
        .where('r.tenant_id = :tenant', { tenant: 't1' })
        .andWhere(where.sql, where.params)
        .getRawMany();
      expect(rows).toEqual([{ country: 'CO', score: 0.9 }]);
    } finally {
      await ds.destroy();
      await db().query(`DROP SCHEMA jl_sql_test CASCADE`);
    }
  });
});
