import { assertSqlTranslatable } from '@kyc/json-logic';

import { SEGMENT_VARIABLES, segmentRuleIssues } from './segment-variables';

describe('segment rules', () => {
  it('accepts rules over known variables, including var defaults and missing', () => {
    expect(segmentRuleIssues({ and: [{ '==': [{ var: ['country', 'CO'] }, 'CO'] }, { missing: ['email'] }] })).toEqual(
      [],
    );
    expect(segmentRuleIssues(true)).toEqual([]);
  });

  it('names unknown variables by their path, in var, missing and missing_some', () => {
    expect(segmentRuleIssues({ and: [true, { '>': [{ var: 'salary' }, 1] }] })).toEqual([
      { path: 'and[1].>[0].var[0]', message: 'unknown variable "salary"' },
    ]);
    expect(segmentRuleIssues({ missing: ['email', 'x'] }).map((i) => i.path)).toEqual(['missing[1]']);
    expect(segmentRuleIssues({ missing_some: [1, ['email', 'y']] }).map((i) => i.path)).toEqual(['missing_some[1][1]']);
    expect(segmentRuleIssues({ var: { var: 'country' } })[0].message).toMatch(/must be the name of a variable/);
  });

  it('refuses unknown operators and wrong argument counts with their path', () => {
    expect(segmentRuleIssues({ or: [{ frob: [1] }] })).toEqual([
      { path: 'or[0].frob', message: 'unknown operator "frob"' },
    ]);
    expect(segmentRuleIssues({ '==': [1] })[0].path).toBe('==');
    expect(segmentRuleIssues(undefined)).toEqual([{ path: '', message: 'is required' }]);
  });

  it('reads the current element, not the profile, inside some/all/none/map/filter/reduce', () => {
    expect(segmentRuleIssues({ some: [{ var: 'tags' }, { '==': [{ var: '' }, 'vip'] }] })).toEqual([]);
    expect(segmentRuleIssues({ some: [{ var: 'nope' }, true] })[0].path).toBe('some[0].var[0]');
  });

  it('every variable translates to SQL with its declared type', () => {
    for (const [name, v] of Object.entries(SEGMENT_VARIABLES))
      expect(() => assertSqlTranslatable({ '!!': [{ var: name }] }, { [name]: v.type })).not.toThrow();
  });
});
