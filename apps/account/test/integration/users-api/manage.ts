import { ApiClient, createTenant, eventually } from '@kyc/testing';

import {
  acceptedAt,
  account,
  api,
  auditOf,
  checks,
  email,
  enc,
  keyOf,
  nextNumber,
  tenantA,
  tenantB,
  userRow,
  useUsersApi,
} from '../users-api-fixture';

describe('users API', () => {
  useUsersApi();

  describe('GET, PUT, PATCH status, DELETE', () => {
    it('reads a user by username with @ and + URL-encoded, 404 for unknown ones', async () => {
      const address = `ana+kyc.${nextNumber()}@example.com`;
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
