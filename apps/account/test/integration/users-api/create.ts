import { ApiClient, createTenant, db, TestTenant } from '@kyc/testing';

import {
  acceptedAt,
  account,
  api,
  auditOf,
  checks,
  email,
  enc,
  keyOf,
  operator,
  tenantA,
  tenantB,
  userRow,
  usersOf,
  useUsersApi,
} from '../users-api-fixture';

describe('users API', () => {
  useUsersApi();

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

    it('refuses a JSON string where the list goes (400 naming billing_hubs); a form field may be sent once', async () => {
      const json = { 'content-type': 'application/json' };
      for (const [client, path] of [
        [operator, `/v1/admin/tenants/${hubTenant.tenantId}`],
        [hubApi, '/v1/account/settings/billing-hubs'],
      ] as const) {
        const res = await client.request<any>('PUT', path, { billing_hubs: 'AAA' }, json);
        expect([res.status, res.body.fields]).toEqual([400, [{ field: 'billing_hubs', message: expect.any(String) }]]);
      }
      const stored = async () =>
        (await db().query(`SELECT billing_hubs FROM account.tenants WHERE id = $1`, [hubTenant.tenantId])).rows[0]
          .billing_hubs;
      expect(await stored()).not.toEqual(['AAA']);
      const form = await operator.put(`/v1/admin/tenants/${hubTenant.tenantId}`, { billing_hubs: 'hub-lima' });
      expect([form.status, await stored()]).toEqual([200, ['HUB-LIMA']]);
      await operator.put(`/v1/admin/tenants/${hubTenant.tenantId}`, { billing_hubs: ['HUB-BOGOTA', 'HUB-CDMX'] });
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
});
