import type { EntityManager } from 'typeorm';

import { RuleCacheService } from './rule-cache.service';
import { EnabledRuleRow, RuleSetStore } from './rule-set.store';

/** A rule-set store answering the tenant's state and rules from memory, counting rule loads. */
function fakeStore() {
  const db = { state: 1, loads: 0, rows: [] as EnabledRuleRow[] };
  const store: Pick<RuleSetStore, 'state' | 'enabledRules'> = {
    state: async () => db.state,
    enabledRules: async () => {
      db.loads++;
      return db.rows;
    },
  };
  return { db, store: store as RuleSetStore, manager: {} as EntityManager };
}

const row = (ruleId: string, condition: unknown, actionId = `${ruleId}-a`): EnabledRuleRow => ({
  rule_id: ruleId,
  version: 1,
  event_type: 'checks.check.finished',
  condition,
  action_id: actionId,
  action_type: 'http_request',
  max_attempts: '3',
});

describe('RuleCacheService', () => {
  it('compiles a tenant’s rules once and reloads only when its rules state moves', async () => {
    const { db, store, manager } = fakeStore();
    db.rows = [row('r1', { '==': [{ var: 'country' }, 'CO'] }), row('r1', true, 'r1-b')];
    const cache = new RuleCacheService(store);
    const first = await cache.rulesFor(manager, 't1', 'checks.check.finished');
    expect(first).toHaveLength(1);
    expect(first[0].actions).toEqual([
      { id: 'r1-a', type: 'http_request', maxAttempts: 3 },
      { id: 'r1-b', type: 'http_request', maxAttempts: 3 },
    ]);
    expect(first[0].condition({ country: 'CO' })).toBe(true);
    await cache.rulesFor(manager, 't1', 'checks.check.finished');
    expect(db.loads).toBe(1);
    db.state = 2; // a change committed by any replica
    db.rows = [row('r2', { '==': [{ var: 'country' }, 'MX'] })];
    const reloaded = await cache.rulesFor(manager, 't1', 'checks.check.finished');
    expect(db.loads).toBe(2);
    expect(reloaded.map((r) => r.id)).toEqual(['r2']);
    expect(await cache.rulesFor(manager, 't1', 'other.event')).toEqual([]);
  });
});
