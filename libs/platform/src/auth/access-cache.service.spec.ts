import { TOPICS } from '@kyc/contracts';

import { ACCESS_MISS_WAIT_MS, AccessCacheService } from './access-cache.service';

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

describe('AccessCacheService.findUser (read-your-writes: a miss asks the owner once)', () => {
  const user = { tenant_id: 't1', user_id: 'u9', username: 'new@acme.com', role: 'r9', status: 'enabled' };
  const role = { tenant_id: 't1', name: 'r9', permissions: ['svc.users'], access_rules: [] };
  const ready = () => {
    const cache = new AccessCacheService();
    (cache as unknown as { caughtUp: boolean }).caughtUp = true;
    return cache;
  };

  afterEach(() => jest.useRealTimers());

  it('waits for a user created a moment ago, and for its role, instead of refusing it', async () => {
    const cache = ready();
    const found = cache.findUser('t1', 'u9');
    const byName = cache.findUserByUsername('t1', 'NEW@acme.com');
    setTimeout(() => cache.apply(TOPICS.userState, 't1/u9', envelope(user)), 20);
    setTimeout(() => cache.apply(TOPICS.roleState, 't1/r9', envelope(role)), 40);
    expect(await found).toEqual(user);
    expect(await byName).toEqual(user);
    expect(cache.role('t1', 'r9')).toEqual(role);
  });

  it('refuses an unknown user after ACCESS_MISS_WAIT_MS, then at once while the miss is remembered', async () => {
    jest.useFakeTimers();
    const cache = ready();
    const first = cache.findUser('t1', 'ghost');
    const second = cache.findUser('t1', 'ghost');
    await jest.advanceTimersByTimeAsync(ACCESS_MISS_WAIT_MS);
    expect(await first).toBeUndefined();
    expect(await second).toBeUndefined();
    // Remembered: no new wait.
    let answered = false;
    void cache.findUser('t1', 'ghost').then(() => (answered = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(answered).toBe(true);
    // Once the record arrives it is found, remembered miss or not.
    cache.apply(TOPICS.userState, 't1/ghost', envelope({ ...user, user_id: 'ghost', role: 'none' }));
    const later = cache.findUser('t1', 'ghost');
    await jest.advanceTimersByTimeAsync(ACCESS_MISS_WAIT_MS);
    expect((await later)?.user_id).toBe('ghost');
  });

  it('refuses a deleted user (by id and by username) and a deleted role at once, without waiting', async () => {
    const cache = ready();
    cache.apply(TOPICS.userState, 't1/u9', envelope(user));
    cache.apply(TOPICS.roleState, 't1/r9', envelope(role));
    cache.apply(TOPICS.userState, 't1/u9', null);
    cache.apply(TOPICS.roleState, 't1/r9', null);
    jest.useFakeTimers();
    const answers = [
      cache.findUser('t1', 'u9'),
      cache.findUserByUsername('t1', 'new@acme.com'),
      cache.findRole('t1', 'r9'),
    ];
    let answered = 0;
    for (const a of answers) void a.then(() => answered++);
    await jest.advanceTimersByTimeAsync(0);
    expect(answered).toBe(3);
    for (const a of answers) expect(await a).toBeUndefined();
  });

  it('stops waiting when the user it waits for is deleted meanwhile', async () => {
    jest.useFakeTimers();
    const cache = ready();
    let answered = false;
    void cache.findUser('t1', 'u7').then(() => (answered = true));
    await jest.advanceTimersByTimeAsync(10);
    cache.apply(TOPICS.userState, 't1/u7', null);
    await jest.advanceTimersByTimeAsync(0);
    expect(answered).toBe(true);
  });

  it('does not wait before the cache is ready (no owner log followed yet)', async () => {
    expect(await new AccessCacheService().findUser('t1', 'u9')).toBeUndefined();
  });
});
