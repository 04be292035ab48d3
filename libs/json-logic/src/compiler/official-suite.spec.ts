import { readFileSync } from 'node:fs';
import path from 'node:path';

import { compile } from './compile';
import { validate } from './validate';

/**
 * The official JSON-Logic test suite (jsonlogic.com, MIT; a copy of the reference file
 * jsonlogic-tests.json): `[rule, data, expected]`; strings are section titles.
 */
const entries: unknown[] = JSON.parse(readFileSync(path.join(__dirname, 'fixtures', 'jsonlogic-tests.json'), 'utf8'));

type Case = [string, unknown, unknown, unknown];
const cases: Case[] = [];
let section = '';
for (const entry of entries) {
  if (typeof entry === 'string') section = entry.replace(/^#\s*/, '');
  else {
    const [rule, data, expected] = entry as [unknown, unknown, unknown];
    cases.push([`${section}: ${JSON.stringify(rule)} on ${JSON.stringify(data)}`, rule, data, expected]);
  }
}

describe('the official JSON-Logic suite against the compiled form', () => {
  it('has the 278 cases of the reference file', () => {
    expect(cases).toHaveLength(278);
  });

  it.each(cases)('%s', (_name, rule, data, expected) => {
    expect(compile(rule)(data)).toEqual(expected);
  });

  it.each(cases)('validate accepts %s', (_name, rule) => {
    expect(validate(rule)).toEqual({ valid: true, rule });
  });

  it('gives the same answers when the compiled rule is reused across data', () => {
    const rule = { and: [{ '<': [{ var: 'temp' }, 110] }, { '==': [{ var: 'pie.filling' }, 'apple'] }] };
    const f = compile(rule);
    expect(f({ temp: 100, pie: { filling: 'apple' } })).toBe(true);
    expect(f({ temp: 120, pie: { filling: 'apple' } })).toBe(false);
    expect(f({ temp: 100, pie: { filling: 'cherry' } })).toBe(false);
    expect(f({ temp: 100 })).toBe(false);
  });
});
