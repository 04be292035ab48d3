import { TOPICS } from '@kyc/contracts';

import { AccessCacheService } from './access-cache.service';

const envelope = (payload: unknown) =>
  Buffer.from(
    JSON.stringify({ id: 'e', type: 't', version: 1, tenant_id: 't1', occurred_at: '', aggregate_id: 'a', payload }),
  );

describe('AccessCacheService.apply (folding the compacted state topics)', () => {
  it('keeps the latest user and role state and forgets tombstoned ones', () => {
    const cache = new AccessCacheService();
    cache.apply(
      TOPICS.userState,
      't1/u1',
      envelope({ tenant_id: 't1', user_id: 'u1', username: 'a', role: 'r', status: 'enabled' }),
    );
    cache.apply(
      TOPICS.userState,
      't1/u1',
      envelope({ tenant_id: 't1', user_id: 'u1', username: 'a', role: 'r', status: 'disabled' }),
    );
    expect(cache.user('t1', 'u1')?.status).toBe('disabled');
    expect(cache.user('t2', 'u1')).toBeUndefined();
    cache.apply(TOPICS.userState, 't1/u1', null);
    expect(cache.user('t1', 'u1')).toBeUndefined();

    cache.apply(
      TOPICS.roleState,
      't1/r',
      envelope({ tenant_id: 't1', name: 'r', permissions: ['checks.country_co'], access_rules: [] }),
    );
    expect(cache.role('t1', 'r')?.permissions).toEqual(['checks.country_co']);
  });

  it('tracks revoked keys', () => {
    const cache = new AccessCacheService();
    cache.apply(TOPICS.apiKeyState, 'k1', envelope({ tenant_id: 't1', key_id: 'k1', revoked: true }));
    expect(cache.isRevoked('k1')).toBe(true);
    expect(cache.isRevoked('k2')).toBe(false);
  });
});
