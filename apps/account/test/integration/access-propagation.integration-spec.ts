import { randomUUID } from 'node:crypto';

import {
  ApiClient,
  closeDb,
  createTenant,
  eventually,
  freePort,
  mintKey,
  RunningService,
  ServiceProcess,
  startInProcess,
  startProcess,
  TestTenant,
} from '@kyc/testing';

import { accountService } from '../../src/app.module';

/**
 * Role and user changes made through the account API reach the checks service running as a
 * separate OS process (from dist/) through Kafka within 2 seconds: what its guard authorizes
 * with (its /v1/auth/whoami) follows the role's permissions, and a disabled user's key is
 * refused there until the user is enabled again.
 */
describe('access changes reach another process within 2 seconds', () => {
  let account: RunningService;
  let checks: ServiceProcess;
  let tenant: TestTenant;
  let admin: ApiClient;

  beforeAll(async () => {
    [account, checks] = await Promise.all([
      startInProcess('account', accountService, {
        KAFKA_CONSUMER_GROUP: `account-propagation-${randomUUID().slice(0, 8)}`,
      }),
      startProcess('checks', await freePort(), { CHECKS_WORKER_ENABLED: 'false' }),
    ]);
    tenant = await createTenant(account.url, [account.url, checks.url]);
    admin = new ApiClient(account.url, tenant.apiKey);
  });

  afterAll(async () => {
    await Promise.all([checks?.kill(), account?.close()]);
    await closeDb();
  });

  /** Waits until `check` passes against the checks process; fails unless that happens within 2 s of `since`. */
  const within2s = async (since: number, check: () => Promise<void>) => {
    await eventually(check, { timeoutMs: 2_000 - (Date.now() - since), intervalMs: 25 });
    expect(Date.now() - since).toBeLessThan(2_000);
  };

  it('applies a role permission change (add, then remove) in the checks process', async () => {
    const role = `co_only_${randomUUID().slice(0, 6)}`;
    expect((await admin.post('/v1/roles', { name: role, permissions: 'checks.country_co' })).status).toBe(201);
    const user = await admin.post('/v1/account/users', {
      email: `analyst.${randomUUID().slice(0, 6)}@example.com`,
      role,
    });
    const asUser = new ApiClient(checks.url, mintKey({ tenant_id: tenant.tenantId, sub: user.body.user.user_id }));
    await eventually(
      async () => expect((await asUser.get('/v1/auth/whoami')).body.permissions).toEqual(['checks.country_co']),
      { timeoutMs: 10_000 },
    );

    expect(
      (await admin.put(`/v1/roles/${role}`, { permissions: ['checks.country_co', 'checks.country_br'] })).status,
    ).toBe(200);
    await within2s(Date.now(), async () =>
      expect((await asUser.get('/v1/auth/whoami')).body.permissions).toEqual([
        'checks.country_br',
        'checks.country_co',
      ]),
    );

    expect((await admin.put(`/v1/roles/${role}`, { permissions: 'checks.country_mx' })).status).toBe(200);
    await within2s(Date.now(), async () =>
      expect((await asUser.get('/v1/auth/whoami')).body.permissions).toEqual(['checks.country_mx']),
    );
  });

  it('applies a change of a user role in the checks process', async () => {
    const user = await admin.post('/v1/account/users', { email: `mover.${randomUUID().slice(0, 6)}@example.com` });
    const asUser = new ApiClient(checks.url, mintKey({ tenant_id: tenant.tenantId, sub: user.body.user.user_id }));
    await eventually(async () => expect((await asUser.get('/v1/auth/whoami')).body.role).toBe('default_access'), {
      timeoutMs: 10_000,
    });
    await admin.put(`/v1/account/users/${encodeURIComponent(user.body.user.username)}`, { role: 'full_access' });
    await within2s(Date.now(), async () =>
      expect((await asUser.get('/v1/auth/whoami')).body.permissions).toContain('svc.users'),
    );
  });

  it('refuses a disabled user key in the checks process and accepts it again once enabled', async () => {
    const user = await admin.post('/v1/account/users', { email: `leaver.${randomUUID().slice(0, 6)}@example.com` });
    const asUser = new ApiClient(checks.url, mintKey({ tenant_id: tenant.tenantId, sub: user.body.user.user_id }));
    await eventually(async () => expect((await asUser.get('/v1/auth/whoami')).status).toBe(200), { timeoutMs: 10_000 });
    const status = `/v1/account/users/${encodeURIComponent(user.body.user.username)}/status`;

    expect((await admin.request<any>('PATCH', status, { status: 'disabled', reason: 'contract ended' })).status).toBe(
      200,
    );
    await within2s(Date.now(), async () =>
      expect((await asUser.get('/v1/auth/whoami')).body).toMatchObject({ code: 401, error_code: 'user_disabled' }),
    );

    expect((await admin.request<any>('PATCH', status, { status: 'enabled', reason: 'rehired' })).status).toBe(200);
    await within2s(Date.now(), async () => expect((await asUser.get('/v1/auth/whoami')).status).toBe(200));
  });
});
