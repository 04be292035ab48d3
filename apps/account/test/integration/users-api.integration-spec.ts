import { randomUUID } from 'node:crypto';

import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  mintKey,
  RunningService,
  signer,
  startInProcess,
  startService,
  TestTenant,
} from '@kyc/testing';

import { accountService } from '../../src/app.module';

/**
 * Users of an account at the HTTP boundary (account service), with the checks service running
 * too: validation of every field (4xx naming the field, nothing stored), billing hubs, tenancy,
 * pagination, the audit log, and a disabled or deleted user's key being refused in another
 * service within 2 seconds.
 */
describe('users API', () => {
  let account: RunningService;
  let checks: RunningService;
  let tenantA: TestTenant;
  let tenantB: TestTenant;
  let api: ApiClient;
  let operator: ApiClient;
  let n = 0;

  const email = (prefix = 'user') => `${prefix}.${++n}.${randomUUID().slice(0, 6)}@Example.com`;
  const enc = encodeURIComponent;
  const usersOf = async (tenantId: string) =>
    (await db().query(`SELECT count(*)::int AS n FROM account.users WHERE tenant_id = $1`, [tenantId])).rows[0]
      .n as number;
  const userRow = async (tenantId: string, username: string) =>
    (
      await db().query(`SELECT * FROM account.users WHERE tenant_id = $1 AND username = $2`, [
        tenantId,
        username.toLowerCase(),
      ])
    ).rows[0];
  const auditOf = async (client: ApiClient, query: Record<string, string>) =>
    (await client.get(`/v1/account/audit-log?${new URLSearchParams(query).toString()}`)).body.entries as any[];
  const keyOf = (tenant: TestTenant, userId: string) => mintKey({ tenant_id: tenant.tenantId, sub: userId });
  const acceptedAt = (url: string, key: string) =>
    eventually(async () => expect((await new ApiClient(url, key).get('/v1/auth/whoami')).status).toBe(200), {
      timeoutMs: 10_000,
      intervalMs: 50,
    });

  beforeAll(async () => {
    [account, checks] = await Promise.all([
      startInProcess('account', accountService, {
        KAFKA_CONSUMER_GROUP: `account-users-spec-${randomUUID().slice(0, 8)}`,
      }),
      startService('checks', { CHECKS_WORKER_ENABLED: 'false' }),
    ]);
    [tenantA, tenantB] = await Promise.all([
      createTenant(account.url, [account.url, checks.url]),
      createTenant(account.url, [account.url]),
    ]);
    api = new ApiClient(account.url, tenantA.apiKey);
    operator = new ApiClient(account.url, await signer().platformAdminToken('users-spec'));
  });

  afterAll(async () => {
    await Promise.all([account?.close(), checks?.close()]);
    await closeDb();
  });

  describe('POST /v1/account/users', () => {
    it('creates a user: e-mail lowercased as username, defaults (default_access, enabled), 201 with the user', async () => {
      const address = email('Ana');
      const res = await api.post('/v1/account/users', {
        email: address,
        country: 'co',
        phone_number: '+573001234567',
        language: 'es',
        display_name: 'Ana Pérez',
      });
      expect(res.status).toBe(201);
      expect(res.body.user).toEqual({
        user_id: expect.any(String),
        username: address.toLowerCase(),
        email: address.toLowerCase(),
        role: 'default_access',
        status: 'enabled',
        country: 'CO',
        phone_number: '+573001234567',
        language: 'es',
        display_name: 'Ana Pérez',
        creation_date: expect.any(String),
        update_date: expect.any(String),
      });
      expect(res.body.self).toBe(`/v1/account/users/${enc(address.toLowerCase())}`);
      const row = await userRow(tenantA.tenantId, address);
      expect(row).toMatchObject({
        id: res.body.user.user_id,
        role: 'default_access',
        status: 'enabled',
        country: 'CO',
      });
      // The state goes to every service's access cache through the outbox, in the same transaction.
      const events = await db().query(
        `SELECT envelope FROM account.outbox WHERE topic = 'account.users' AND message_key = $1`,
        [`${tenantA.tenantId}/${row.id}`],
      );
      expect(events.rows.map((r) => r.envelope.payload)).toEqual([
        {
          tenant_id: tenantA.tenantId,
          user_id: row.id,
          username: address.toLowerCase(),
          role: 'default_access',
          status: 'enabled',
        },
      ]);
      const entries = await auditOf(api, {
        resource_type: 'user',
        resource_id: address.toLowerCase(),
        action: 'user.created',
      });
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        actor_id: tenantA.adminUserId,
        changes: { role: { to: 'default_access' }, country: { to: 'CO' } },
      });
    });

    it('gives the new user a working API key in another service (checks)', async () => {
      const res = await api.post('/v1/account/users', { email: email() });
      const key = keyOf(tenantA, res.body.user.user_id);
      await acceptedAt(checks.url, key);
      const whoami = await new ApiClient(checks.url, key).get('/v1/auth/whoami');
      expect(whoami.body).toMatchObject({
        tenant_id: tenantA.tenantId,
        username: res.body.user.username,
        role: 'default_access',
      });
      expect(whoami.body.permissions).not.toContain('svc.users');
    });

    it('refuses a duplicate e-mail, in any case, with 409 and stores nothing', async () => {
      const address = email();
      expect((await api.post('/v1/account/users', { email: address })).status).toBe(201);
      const before = await usersOf(tenantA.tenantId);
      const again = await api.post('/v1/account/users', { email: address.toUpperCase() });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        code: 409,
        error_code: 'user_already_exists',
        fields: [{ field: 'email', message: expect.any(String) }],
      });
      expect(await usersOf(tenantA.tenantId)).toBe(before);
    });

    it('names every bad field in one 400 and stores nothing', async () => {
      const before = await usersOf(tenantA.tenantId);
      const res = await api.post('/v1/account/users', {
        email: 'not-an-email',
        country: 'ZZ',
        phone_number: '3001234567',
        language: 'fr',
        display_name: 'x'.repeat(201),
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 400, status: 'Bad Request', error_code: 'validation_failed' });
      expect(res.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
        'country',
        'display_name',
        'email',
        'language',
        'phone_number',
      ]);
      expect(await usersOf(tenantA.tenantId)).toBe(before);
    });

    it.each([
      ['email missing', { email: undefined }, 'email'],
      ['email not an address', { email: 'ana@' }, 'email'],
      ['country not ISO 3166 alpha-2', { country: 'COL' }, 'country'],
      ['country not an assigned code', { country: 'XX' }, 'country'],
      ['phone_number not E.164 (no +)', { phone_number: '573001234567' }, 'phone_number'],
      ['phone_number with spaces', { phone_number: '+57 300 123 4567' }, 'phone_number'],
      ['phone_number too long', { phone_number: '+1234567890123456' }, 'phone_number'],
      ['language outside es, en, pt', { language: 'fr' }, 'language'],
      ['role that does not exist', { role: 'no_such_role' }, 'role'],
      ['billing_hub when the account has none', { billing_hub: 'HUB-1' }, 'billing_hub'],
      ['display_name too long', { display_name: 'x'.repeat(201) }, 'display_name'],
    ])('refuses %s with 400 naming the field, storing nothing', async (_what, body, field) => {
      const before = await usersOf(tenantA.tenantId);
      const res = await api.post('/v1/account/users', { email: email(), ...body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(400);
      expect(res.body.fields).toEqual([{ field, message: expect.any(String) }]);
      expect(await usersOf(tenantA.tenantId)).toBe(before);
    });

    it('needs svc.users: a default_access user gets 403 naming it', async () => {
      const created = await api.post('/v1/account/users', { email: email() });
      const key = keyOf(tenantA, created.body.user.user_id);
      await acceptedAt(account.url, key);
      const res = await new ApiClient(account.url, key).post('/v1/account/users', { email: email() });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 403, error_code: 'forbidden' });
      expect(res.body.message).toContain('svc.users');
      expect((await new ApiClient(account.url, key).get('/v1/account/users')).status).toBe(403);
    });
  });

  describe('billing hubs', () => {
    let hubTenant: TestTenant;
    let hubApi: ApiClient;

    beforeAll(async () => {
      hubTenant = await createTenant(account.url, [account.url]);
      hubApi = api.withKey(hubTenant.apiKey);
    });

    it('lets a platform operator set them (PUT /v1/admin/tenants/{id}), uppercased, and nobody else', async () => {
      const res = await operator.put(`/v1/admin/tenants/${hubTenant.tenantId}`, {
        billing_hubs: ['hub-bogota', 'HUB-CDMX'],
      });
      expect(res.status).toBe(200);
      expect(res.body.tenant).toMatchObject({
        tenant_id: hubTenant.tenantId,
        billing_hubs: ['HUB-BOGOTA', 'HUB-CDMX'],
      });
      expect((await operator.get(`/v1/admin/tenants/${hubTenant.tenantId}`)).body.tenant.billing_hubs).toEqual([
        'HUB-BOGOTA',
        'HUB-CDMX',
      ]);
      const asTenantAdmin = await hubApi.put(`/v1/admin/tenants/${hubTenant.tenantId}`, { billing_hubs: ['X'] });
      expect(asTenantAdmin.status).toBe(403);
      expect((await operator.put('/v1/admin/tenants/no-such-tenant', { name: 'x' })).status).toBe(404);
      const bad = await operator.put(`/v1/admin/tenants/${hubTenant.tenantId}`, { billing_hubs: ['ok', 'not ok'] });
      expect(bad.status).toBe(400);
      expect(bad.body.fields).toEqual([{ field: 'billing_hubs', message: expect.any(String) }]);
      expect(
        (await db().query(`SELECT billing_hubs FROM account.tenants WHERE id = $1`, [hubTenant.tenantId])).rows[0]
          .billing_hubs,
      ).toEqual(['HUB-BOGOTA', 'HUB-CDMX']);
    });

    it('requires billing_hub from then on, matching a hub exactly, stored uppercase', async () => {
      await operator.put(`/v1/admin/tenants/${hubTenant.tenantId}`, { billing_hubs: ['HUB-BOGOTA', 'HUB-CDMX'] });
      const before = await usersOf(hubTenant.tenantId);
      for (const body of [{}, { billing_hub: 'hub-bogota' }, { billing_hub: 'HUB-LIMA' }, { billing_hub: '' }]) {
        const res = await hubApi.post('/v1/account/users', { email: email(), ...body });
        expect([res.status, res.body.fields]).toEqual([400, [{ field: 'billing_hub', message: expect.any(String) }]]);
      }
      expect(await usersOf(hubTenant.tenantId)).toBe(before);
      const ok = await hubApi.post('/v1/account/users', { email: email(), billing_hub: 'HUB-CDMX' });
      expect(ok.status).toBe(201);
      expect(ok.body.user.billing_hub).toBe('HUB-CDMX');
      expect((await userRow(hubTenant.tenantId, ok.body.user.username)).billing_hub).toBe('HUB-CDMX');
    });

    it('names role and billing_hub together when both are wrong', async () => {
      const res = await hubApi.post('/v1/account/users', { email: email(), role: 'nope', billing_hub: 'NOPE' });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field).sort()).toEqual(['billing_hub', 'role']);
    });

    it('are managed by the account administrators at /v1/account/settings/billing-hubs (svc.users), audited', async () => {
      const res = await hubApi.put('/v1/account/settings/billing-hubs', {
        billing_hubs: ['hub-bogota', 'hub-lima', 'HUB-LIMA'],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ billing_hubs: ['HUB-BOGOTA', 'HUB-LIMA'] });
      expect((await hubApi.get('/v1/account/settings/billing-hubs')).body).toEqual({
        billing_hubs: ['HUB-BOGOTA', 'HUB-LIMA'],
      });
      const entries = await auditOf(hubApi, { resource_type: 'tenant', action: 'tenant.updated' });
      expect(entries[0]).toMatchObject({
        actor_id: hubTenant.adminUserId,
        changes: { billing_hubs: { from: ['HUB-BOGOTA', 'HUB-CDMX'], to: ['HUB-BOGOTA', 'HUB-LIMA'] } },
      });
      expect(entries.some((e) => e.actor_id === 'platform')).toBe(true);
      const missing = await hubApi.put('/v1/account/settings/billing-hubs', {});
      expect([missing.status, missing.body.fields?.[0]?.field]).toEqual([400, 'billing_hubs']);
      // Tenant B sees only its own (none) and cannot change A's.
      expect((await api.withKey(tenantB.apiKey).get('/v1/account/settings/billing-hubs')).body).toEqual({
        billing_hubs: [],
      });
    });

    it('can be removed (single empty value), after which billing_hub must be left out', async () => {
      expect((await hubApi.put('/v1/account/settings/billing-hubs', { billing_hubs: '' })).body).toEqual({
        billing_hubs: [],
      });
      expect((await hubApi.post('/v1/account/users', { email: email() })).status).toBe(201);
      expect((await hubApi.post('/v1/account/users', { email: email(), billing_hub: 'HUB-LIMA' })).status).toBe(400);
    });
  });

  describe('GET, PUT, PATCH status, DELETE', () => {
    it('reads a user by username with @ and + URL-encoded, 404 for unknown ones', async () => {
      const address = `ana+kyc.${++n}@example.com`;
      await api.post('/v1/account/users', { email: address });
      const res = await api.get(`/v1/account/users/${enc(address)}`);
      expect(res.status).toBe(200);
      expect(res.body.user.username).toBe(address);
      expect((await api.get(`/v1/account/users/${enc(address.toUpperCase())}`)).status).toBe(200);
      const missing = await api.get(`/v1/account/users/${enc('nobody@example.com')}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ code: 404, error_code: 'user_not_found' });
    });

    it('updates role, billing_hub, display_name and phone_number; audits the changes; clears with empty values', async () => {
      await api.post('/v1/roles', { name: 'co_analysts', permissions: ['checks.country_co'] });
      const created = await api.post('/v1/account/users', {
        email: email(),
        display_name: 'Old',
        phone_number: '+573001234567',
      });
      const path = `/v1/account/users/${enc(created.body.user.username)}`;
      const res = await api.put(path, { role: 'co_analysts', display_name: 'New' });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ role: 'co_analysts', display_name: 'New', phone_number: '+573001234567' });
      const [entry] = await auditOf(api, { resource_id: created.body.user.username, action: 'user.updated' });
      expect(entry.changes).toEqual({
        role: { from: 'default_access', to: 'co_analysts' },
        display_name: { from: 'Old', to: 'New' },
      });
      const cleared = await api.put(path, { phone_number: '', display_name: '' });
      expect(cleared.body.user.phone_number).toBeUndefined();
      expect(cleared.body.user.display_name).toBeUndefined();
      expect(await userRow(tenantA.tenantId, created.body.user.username)).toMatchObject({
        phone_number: null,
        display_name: null,
        role: 'co_analysts',
      });
      // The new role reaches the checks service.
      const key = keyOf(tenantA, created.body.user.user_id);
      await eventually(
        async () =>
          expect((await new ApiClient(checks.url, key).get('/v1/auth/whoami')).body.permissions).toEqual([
            'checks.country_co',
          ]),
        { timeoutMs: 5_000 },
      );
    });

    it('refuses bad updates with 400 naming the field and changes nothing; 404 for an unknown user', async () => {
      const created = await api.post('/v1/account/users', { email: email() });
      const path = `/v1/account/users/${enc(created.body.user.username)}`;
      for (const [body, field] of [
        [{ role: 'no_such_role' }, 'role'],
        [{ phone_number: '12' }, 'phone_number'],
        [{ billing_hub: 'HUB-X' }, 'billing_hub'],
        [{ display_name: 'x'.repeat(201) }, 'display_name'],
      ] as const) {
        const res = await api.put(path, body);
        expect([res.status, res.body.fields]).toEqual([400, [{ field, message: expect.any(String) }]]);
      }
      expect(await userRow(tenantA.tenantId, created.body.user.username)).toMatchObject({
        role: 'default_access',
        phone_number: null,
        billing_hub: null,
        display_name: null,
      });
      expect((await api.put(`/v1/account/users/${enc('ghost@example.com')}`, { display_name: 'x' })).status).toBe(404);
    });

    it('disables a user with a reason (audited): their key gets 401 in the checks service within 2 s; enabling restores it', async () => {
      const created = await api.post('/v1/account/users', { email: email() });
      const key = keyOf(tenantA, created.body.user.user_id);
      const asUser = new ApiClient(checks.url, key);
      await acceptedAt(checks.url, key);
      expect((await asUser.get('/v1/auth/whoami')).status).toBe(200);

      const path = `/v1/account/users/${enc(created.body.user.username)}/status`;
      const disabled = await api.request<any>('PATCH', path, { status: 'disabled', reason: 'left the company' });
      expect(disabled.status).toBe(200);
      expect(disabled.body.user.status).toBe('disabled');
      const t0 = Date.now();
      await eventually(
        async () => expect((await asUser.get('/v1/auth/whoami')).body.error_code).toBe('user_disabled'),
        { timeoutMs: 2_000, intervalMs: 25 },
      );
      expect(Date.now() - t0).toBeLessThan(2_000);
      const refused = await asUser.get('/v1/auth/whoami');
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 401, error_code: 'user_disabled' });

      const enabled = await api.request<any>('PATCH', path, { status: 'enabled', reason: 'came back' });
      expect(enabled.body.user.status).toBe('enabled');
      const t1 = Date.now();
      await eventually(async () => expect((await asUser.get('/v1/auth/whoami')).status).toBe(200), {
        timeoutMs: 2_000,
        intervalMs: 25,
      });
      expect(Date.now() - t1).toBeLessThan(2_000);

      const entries = await auditOf(api, { resource_id: created.body.user.username, action: 'user.status_changed' });
      expect(entries.map((e) => [e.reason, e.changes.status])).toEqual([
        ['came back', { from: 'disabled', to: 'enabled' }],
        ['left the company', { from: 'enabled', to: 'disabled' }],
      ]);
    });

    it('requires a reason and a valid status; changes nothing otherwise', async () => {
      const created = await api.post('/v1/account/users', { email: email() });
      const path = `/v1/account/users/${enc(created.body.user.username)}/status`;
      for (const [body, fields] of [
        [{ status: 'disabled' }, ['reason']],
        [{ status: 'disabled', reason: '  ' }, ['reason']],
        [{ status: 'paused', reason: 'x' }, ['status']],
        [{}, ['reason', 'status']],
      ] as const) {
        const res = await api.request<any>('PATCH', path, body);
        expect([res.status, res.body.fields.map((f: { field: string }) => f.field).sort()]).toEqual([400, fields]);
      }
      expect((await userRow(tenantA.tenantId, created.body.user.username)).status).toBe('enabled');
      expect(await auditOf(api, { resource_id: created.body.user.username, action: 'user.status_changed' })).toEqual(
        [],
      );
      expect(
        (
          await api.request<any>('PATCH', `/v1/account/users/${enc('ghost@example.com')}/status`, {
            status: 'disabled',
            reason: 'x',
          })
        ).status,
      ).toBe(404);
    });

    it('does not let a caller disable or delete their own user', async () => {
      const me = `/v1/account/users/${enc(`admin@${tenantA.tenantId}.test`)}`;
      const res = await api.request<any>('PATCH', `${me}/status`, { status: 'disabled', reason: 'oops' });
      expect(res.status).toBe(409);
      expect(res.body.error_code).toBe('self_modification_not_allowed');
      expect(
        (await api.request<any>('DELETE', '/v1/account/users', { email: `admin@${tenantA.tenantId}.test` })).status,
      ).toBe(409);
      expect((await api.get('/v1/auth/whoami')).status).toBe(200);
    });

    it('deletes a user named by e-mail in the body: audited, gone, and their key refused in checks within 2 s', async () => {
      const created = await api.post('/v1/account/users', { email: email() });
      const key = keyOf(tenantA, created.body.user.user_id);
      await acceptedAt(checks.url, key);
      const res = await api.request<any>('DELETE', '/v1/account/users', {
        email: created.body.user.username.toUpperCase(),
      });
      expect(res.status).toBe(200);
      expect(res.body.user.username).toBe(created.body.user.username);
      const t0 = Date.now();
      await eventually(
        async () => expect((await new ApiClient(checks.url, key).get('/v1/auth/whoami')).status).toBe(401),
        { timeoutMs: 2_000, intervalMs: 25 },
      );
      expect(Date.now() - t0).toBeLessThan(2_000);
      expect((await api.get(`/v1/account/users/${enc(created.body.user.username)}`)).status).toBe(404);
      expect(await userRow(tenantA.tenantId, created.body.user.username)).toBeUndefined();
      const [entry] = await auditOf(api, { resource_id: created.body.user.username, action: 'user.deleted' });
      expect(entry.changes.username).toEqual({ from: created.body.user.username });
    });

    it('refuses a delete without e-mail (400) and of an unknown user (404)', async () => {
      const missing = await api.request<any>('DELETE', '/v1/account/users', {});
      expect([missing.status, missing.body.fields]).toEqual([400, [{ field: 'email', message: expect.any(String) }]]);
      const noBody = await api.delete('/v1/account/users');
      expect([noBody.status, noBody.body.code]).toEqual([400, 400]);
      expect((await api.request<any>('DELETE', '/v1/account/users', { email: 'ghost@example.com' })).status).toBe(404);
    });
  });

  describe('tenancy and listing', () => {
    it("never shows or changes another tenant's users (404, as if they did not exist)", async () => {
      const created = await api.post('/v1/account/users', { email: email() });
      const username = created.body.user.username;
      const other = api.withKey(tenantB.apiKey);
      const path = `/v1/account/users/${enc(username)}`;
      expect((await other.get(path)).status).toBe(404);
      expect((await other.put(path, { display_name: 'hijacked' })).status).toBe(404);
      expect((await other.request<any>('PATCH', `${path}/status`, { status: 'disabled', reason: 'x' })).status).toBe(
        404,
      );
      expect((await other.request<any>('DELETE', '/v1/account/users', { email: username })).status).toBe(404);
      const list = await other.get('/v1/account/users?limit=100');
      expect(list.body.users.map((u: { username: string }) => u.username)).not.toContain(username);
      expect(await userRow(tenantA.tenantId, username)).toMatchObject({ display_name: null, status: 'enabled' });
      // The same e-mail may exist in another tenant.
      expect((await other.post('/v1/account/users', { email: username })).status).toBe(201);
    });

    it('pages the list with start_key taken from the next link', async () => {
      const tenant = await createTenant(account.url, [account.url]);
      const client = api.withKey(tenant.apiKey);
      for (let i = 0; i < 22; i++)
        expect((await client.post('/v1/account/users', { email: email('page') })).status).toBe(201);
      const page1 = await client.get('/v1/account/users');
      expect(page1.body.users).toHaveLength(20);
      expect(page1.body.self).toMatch(/\/v1\/account\/users$/);
      const next = new URL(page1.body.next);
      expect(next.searchParams.get('start_key')).toBeTruthy();
      const page2 = await client.get(next.pathname + next.search);
      expect(page2.body.users).toHaveLength(3);
      expect(page2.body.next).toBeUndefined();
      const names = new Set([...page1.body.users, ...page2.body.users].map((u: { username: string }) => u.username));
      expect(names.size).toBe(23);
      expect(names).toContain(`admin@${tenant.tenantId}.test`);
      const small = await client.get('/v1/account/users?limit=5');
      expect(small.body.users).toHaveLength(5);
      expect(new URL(small.body.next).searchParams.get('limit')).toBe('5');
      const bad = await client.get('/v1/account/users?start_key=garbage');
      expect([bad.status, bad.body.fields?.[0]?.field]).toEqual([400, 'start_key']);
    });
  });
});
