import { compile } from '@kyc/json-logic';

import { checkVariables } from './check-variables';
import { LoadedRule, matchRules } from './rule-matcher';

const rule = (id: string, condition: unknown): LoadedRule => ({
  id,
  version: 1,
  eventType: 'checks.check.finished',
  condition: compile(condition),
  actions: [],
});

const event = checkVariables({
  id: 'ev1',
  type: 'checks.check.finished',
  version: 1,
  tenant_id: 't1',
  occurred_at: '2026-01-01T00:00:00Z',
  aggregate_id: 'CHK1',
  payload: {
    check: {
      check_id: 'CHK1',
      tenant_id: 't1',
      country: 'CO',
      type: 'person',
      status: 'completed',
      score: 0.3,
      id_score: 0.4,
      homonym_score: 1,
      inputs: { national_id: '123', type: 'ignored' },
      creation_date: 'c',
      update_date: 'u',
    },
  },
});

describe('rule matching', () => {
  it('builds flat variables: check fields first, then inputs; depth 0 by default', () => {
    expect(event).toMatchObject({
      event_id: 'ev1',
      check_id: 'CHK1',
      country: 'CO',
      type: 'person',
      score: 0.3,
      national_id: '123',
      rule_depth: 0,
      custom_input: null,
    });
  });

  it('returns the rules whose condition is truthy (JSON-Logic truthiness), and the ones that threw', () => {
    const rules = [
      rule('co', { '==': [{ var: 'country' }, 'CO'] }),
      rule('mx', { '==': [{ var: 'country' }, 'MX'] }),
      rule('empty-list', { missing: ['national_id'] }),
      rule('risky', { and: [{ '<': [{ var: 'score' }, 0.5] }, { '!': { missing: ['national_id'] } }] }),
      rule('broken', { missing_some: [1, { var: 'nothing' }] }),
    ];
    const { matched, failed } = matchRules(rules, event);
    expect(matched.map((r) => r.id)).toEqual(['co', 'risky']);
    expect(failed.map((f) => f.rule.id)).toEqual(['broken']);
  });
});
