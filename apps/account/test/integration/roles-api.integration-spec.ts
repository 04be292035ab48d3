import { randomUUID } from 'node:crypto';

import { GRANTING_PERMISSIONS, PERMISSIONS } from '@kyc/contracts';
import { AccessCacheService } from '@kyc/platform';
import { ApiClient, closeDb, createTenant, db, eventually, mintKey, startInProcess, TestTenant } from '@kyc/testing';

import { accountService } from '../../src/app.module';

/**
 * Roles and permissions at the HTTP boundary (account service): reserved built-in roles,
 * permissions from the master list, access rules validated as translatable JSON-Logic, role
 * state published to every access cache, the audit log, tenancy and pagination.
 */
describe('roles and permissions API', () => {
  let account: Awaited<ReturnType<typeof startInProcess>>;
  let tenantA: TestTenant;
  let tenantB: TestTenant;
  let api: ApiClient;
  let n = 0;

  const roleName = (prefix = 'role') => `${prefix}_${++n}_${randomUUID().slice(0, 6)}`;
  const rolesOf = async (tenantId: string) =>
    (await db().query(`SELECT count(*)::int AS n FROM account.roles WHERE tenant_id = $1`, [tenantId])).rows[0]
      .n as number;
  const roleRow = async (tenantId: string, name: string) =>
    (await db().query(`SELECT * FROM account.roles WHERE tenant_id = $1 AND name = $2`, [tenantId, name])).rows[0];
  const auditOf = async (client: ApiClient, query: Record<string, string>) =>
    (await client.get(`/v1/account/audit-log?${new URLSearchParams(query).toString()}`)).body.entries as any[];
  const countryRule = '{"==":[{"var":"country"},"CO"]}';

  beforeAll(async () => {
    account = await startInProcess('account', accountService, {
      KAFKA_CONSUMER_GROUP: `account-roles-spec-${randomUUID().slice(0, 8)}`,
    });
    [tenantA, tenantB] = await Promise.all([createTenant(account.url), createTenant(account.url)]);
    api = new ApiClient(account.url, tenantA.apiKey);
  });

  afterAll(async () => {
    await account?.close();
    await closeDb();
  });

  describe('POST /v1/roles', () => {
    it('creates a role from repeated form fields (permissions, access_rules); publishes and audits it', async () => {
      const name = roleName('analysts');
      const res = await api.post('/v1/roles', {
        name,
        description: 'Colombian checks only',
        permissions: ['checks.country_co', 'checks.behavior', 'checks.country_co'],
        access_rules: [countryRule, '{">=":[{"var":"score"},0.5]}'],
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        role: {
          name,
          description: 'Colombian checks only',
          permissions: ['checks.country_co', 'checks.behavior'],
          access_rules: [{ '==': [{ var: 'country' }, 'CO'] }, { '>=': [{ var: 'score' }, 0.5] }],
          built_in: false,
          creation_date: expect.any(String),
          update_date: expect.any(String),
        },
        self: `/v1/roles/${name}`,
      });
      expect(await roleRow(tenantA.tenantId, name)).toMatchObject({
        permissions: ['checks.country_co', 'checks.behavior'],
        built_in: false,
      });
      const events = await db().query(
        `SELECT envelope FROM account.outbox WHERE topic = 'account.roles' AND message_key = $1`,
        [`${tenantA.tenantId}/${name}`],
      );
      expect(events.rows.map((r) => r.envelope.payload)).toEqual([
        {
          tenant_id: tenantA.tenantId,
          name,
          permissions: ['checks.country_co', 'checks.behavior'],
          access_rules: [{ '==': [{ var: 'country' }, 'CO'] }, { '>=': [{ var: 'score' }, 0.5] }],
        },
      ]);
      // The role (with its access rules) reaches the access cache every service authorizes with.
      const cache = account.app.get(AccessCacheService);
      await eventually(
        () =>
          expect(cache.role(tenantA.tenantId, name)?.access_rules).toEqual([
            { '==': [{ var: 'country' }, 'CO'] },
            { '>=': [{ var: 'score' }, 0.5] },
          ]),
        { timeoutMs: 2_000 },
      );
      const [entry] = await auditOf(api, { resource_type: 'role', resource_id: name, action: 'role.created' });
      expect(entry.changes.permissions).toEqual({ to: ['checks.country_co', 'checks.behavior'] });
    });

    it('takes JSON bodies too, with access rules as objects', async () => {
      const name = roleName();
      const res = await api.postJson('/v1/roles', {
        name,
        permissions: ['svc.keys'],
        access_rules: [{ in: [{ var: 'country' }, ['CO', 'MX']] }],
      });
      expect(res.status).toBe(201);
      expect(res.body.role).toMatchObject({
        description: '',
        permissions: ['svc.keys'],
        access_rules: [{ in: [{ var: 'country' }, ['CO', 'MX']] }],
      });
    });

    it('refuses the built-in names full_access and default_access (any case) with 400 reserved_role_name', async () => {
      for (const name of ['full_access', 'default_access', 'Full_Access']) {
        const res = await api.post('/v1/roles', { name, permissions: 'checks.country_co' });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          code: 400,
          error_code: 'reserved_role_name',
          fields: [{ field: 'name', message: expect.stringContaining('reserved') }],
        });
      }
      expect(await roleRow(tenantA.tenantId, 'Full_Access')).toBeUndefined();
    });

    it('refuses a duplicate name with 409', async () => {
      const name = roleName();
      expect((await api.post('/v1/roles', { name })).status).toBe(201);
      const again = await api.post('/v1/roles', { name, permissions: 'svc.users' });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        error_code: 'role_already_exists',
        fields: [{ field: 'name', message: expect.any(String) }],
      });
      expect((await roleRow(tenantA.tenantId, name)).permissions).toEqual([]);
    });

    it('names the unknown permission values with 400 and stores nothing', async () => {
      const before = await rolesOf(tenantA.tenantId);
      const res = await api.post('/v1/roles', {
        name: roleName(),
        permissions: ['checks.country_co', 'checks.country_us', 'root'],
      });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([
        { field: 'permissions', message: expect.stringContaining('"checks.country_us", "root"') },
      ]);
      expect(await rolesOf(tenantA.tenantId)).toBe(before);
    });

    it.each([
      ['invalid JSON', '{"==":[{"var":"country"}', /not valid JSON/],
      ['an unknown operator', '{"like":[{"var":"country"},"C%"]}', /unknown operator "like"/],
      [
        'an operator the SQL translation does not support',
        '{"if":[{"var":"country"},true,false]}',
        /operator "if" is not supported/,
      ],
      ['a field rules may not read', '{"==":[{"var":"api_key"},"x"]}', /unknown field "api_key"/],
      ['a coercion SQL cannot reproduce', '{"<":[{"var":"country"},5]}', /text-to-number conversion/],
      ['a value that is not an operation', '"CO"', /must be a JSON-Logic operation/],
    ])('refuses an access rule with %s: 400 naming access_rules, nothing stored', async (_what, rule, message) => {
      const before = await rolesOf(tenantA.tenantId);
      const res = await api.post('/v1/roles', {
        name: roleName(),
        permissions: 'checks.country_co',
        access_rules: [countryRule, rule],
      });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([
        { field: 'access_rules', message: expect.stringMatching(/^access_rules\[1\]: /) },
      ]);
      expect(res.body.fields[0].message).toMatch(message);
      expect(await rolesOf(tenantA.tenantId)).toBe(before);
    });

    it('names every bad field at once', async () => {
      const res = await api.post('/v1/roles', {
        name: 'bad name',
        description: 'x'.repeat(501),
        permissions: 'nope',
        access_rules: '{',
      });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
        'access_rules',
        'description',
        'name',
        'permissions',
      ]);
    });

    it('needs svc.users', async () => {
      const user = await api.post('/v1/account/users', { email: `plain.${randomUUID().slice(0, 6)}@example.com` });
      const key = mintKey({ tenant_id: tenantA.tenantId, sub: user.body.user.user_id });
      await eventually(async () => expect((await api.withKey(key).get('/v1/auth/whoami')).status).toBe(200));
      for (const res of [
        await api.withKey(key).post('/v1/roles', { name: roleName() }),
        await api.withKey(key).get('/v1/roles'),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.message).toContain('svc.users');
      }
    });
  });

  describe('GET, PUT, DELETE /v1/roles/{role_name}', () => {
    it('lists the built-in roles with every account, and reads them', async () => {
      const res = await api.get('/v1/roles/full_access');
      expect(res.status).toBe(200);
      expect(res.body.role).toMatchObject({
        name: 'full_access',
        built_in: true,
        permissions: [...GRANTING_PERMISSIONS],
        access_rules: [],
      });
      const def = await api.get('/v1/roles/default_access');
      expect(def.body.role.permissions).not.toContain('svc.users');
      expect((await api.get('/v1/roles/nope')).body).toMatchObject({ code: 404, error_code: 'role_not_found' });
    });

    it('updates description, permissions and access rules (the given fields only); publishes and audits the change', async () => {
      const name = roleName();
      await api.post('/v1/roles', { name, description: 'before', permissions: 'checks.country_co' });
      const res = await api.put(`/v1/roles/${name}`, {
        permissions: ['checks.country_co', 'checks.country_mx'],
        access_rules: countryRule,
      });
      expect(res.status).toBe(200);
      expect(res.body.role).toMatchObject({
        name,
        description: 'before',
        permissions: ['checks.country_co', 'checks.country_mx'],
        access_rules: [{ '==': [{ var: 'country' }, 'CO'] }],
      });
      const cache = account.app.get(AccessCacheService);
      await eventually(
        () =>
          expect(cache.role(tenantA.tenantId, name)?.permissions).toEqual(['checks.country_co', 'checks.country_mx']),
        { timeoutMs: 2_000 },
      );
      const [entry] = await auditOf(api, { resource_id: name, action: 'role.updated' });
      expect(entry.changes).toEqual({
        permissions: { from: ['checks.country_co'], to: ['checks.country_co', 'checks.country_mx'] },
        access_rules: { from: [], to: [{ '==': [{ var: 'country' }, 'CO'] }] },
      });
    });

    it('refuses changing the built-in roles with 403 built_in_role', async () => {
      for (const name of ['full_access', 'default_access']) {
        const res = await api.put(`/v1/roles/${name}`, { permissions: 'checks.country_co' });
        expect(res.status).toBe(403);
        expect(res.body.error_code).toBe('built_in_role');
        expect((await api.delete(`/v1/roles/${name}`)).body.error_code).toBe('built_in_role');
      }
      expect((await roleRow(tenantA.tenantId, 'full_access')).permissions).toEqual([...GRANTING_PERMISSIONS]);
    });

    it('refuses bad updates with 400 naming the field, a rename, and unknown roles (404)', async () => {
      const name = roleName();
      await api.post('/v1/roles', { name, permissions: 'checks.country_co' });
      for (const [body, field] of [
        [{ permissions: 'checks.country_zz' }, 'permissions'],
        [{ access_rules: '{"substr":["abc",1]}' }, 'access_rules'],
        [{ name: 'another_name' }, 'name'],
        [{ description: 'x'.repeat(501) }, 'description'],
      ] as const) {
        const res = await api.put(`/v1/roles/${name}`, body);
        expect([res.status, res.body.fields]).toEqual([400, [{ field, message: expect.any(String) }]]);
      }
      expect(await roleRow(tenantA.tenantId, name)).toMatchObject({
        permissions: ['checks.country_co'],
        access_rules: [],
      });
      expect((await api.put('/v1/roles/ghost', { permissions: 'svc.keys' })).status).toBe(404);
    });

    it('deletes a role nobody holds (tombstone in every access cache), refuses one in use with 409', async () => {
      const name = roleName();
      await api.post('/v1/roles', { name, permissions: 'checks.country_co' });
      const user = await api.post('/v1/account/users', {
        email: `holder.${randomUUID().slice(0, 6)}@example.com`,
        role: name,
      });
      expect(user.body.user.role).toBe(name);
      const inUse = await api.delete(`/v1/roles/${name}`);
      expect(inUse.status).toBe(409);
      expect(inUse.body.error_code).toBe('role_in_use');
      await api.put(`/v1/account/users/${encodeURIComponent(user.body.user.username)}`, { role: 'default_access' });
      const cache = account.app.get(AccessCacheService);
      await eventually(() => expect(cache.role(tenantA.tenantId, name)).toBeDefined(), { timeoutMs: 2_000 });
      const deleted = await api.delete(`/v1/roles/${name}`);
      expect(deleted.status).toBe(200);
      expect((await api.get(`/v1/roles/${name}`)).status).toBe(404);
      await eventually(() => expect(cache.role(tenantA.tenantId, name)).toBeUndefined(), { timeoutMs: 2_000 });
      expect(await auditOf(api, { resource_id: name, action: 'role.deleted' })).toHaveLength(1);
      // Users can no longer be given the deleted role.
      const refused = await api.post('/v1/account/users', {
        email: `late.${randomUUID().slice(0, 6)}@example.com`,
        role: name,
      });
      expect([refused.status, refused.body.fields?.[0]?.field]).toEqual([400, 'role']);
    });
  });

  describe('tenancy and listing', () => {
    it("never shows or changes another tenant's roles", async () => {
      const name = roleName('private');
      await api.post('/v1/roles', { name, permissions: 'checks.country_co' });
      const other = api.withKey(tenantB.apiKey);
      expect((await other.get(`/v1/roles/${name}`)).status).toBe(404);
      expect((await other.put(`/v1/roles/${name}`, { permissions: 'svc.users' })).status).toBe(404);
      expect((await other.delete(`/v1/roles/${name}`)).status).toBe(404);
      expect(
        (await other.post('/v1/account/users', { email: `x.${randomUUID().slice(0, 6)}@example.com`, role: name })).body
          .fields?.[0]?.field,
      ).toBe('role');
      const list = await other.get('/v1/roles?limit=100');
      expect(list.body.roles.map((r: { name: string }) => r.name).sort()).toEqual(['default_access', 'full_access']);
      expect((await roleRow(tenantA.tenantId, name)).permissions).toEqual(['checks.country_co']);
      // The same name is free in another tenant.
      expect((await other.post('/v1/roles', { name })).status).toBe(201);
    });

    it('pages the list with start_key taken from the next link', async () => {
      const tenant = await createTenant(account.url);
      const client = api.withKey(tenant.apiKey);
      for (let i = 0; i < 21; i++)
        expect((await client.post('/v1/roles', { name: roleName('page') })).status).toBe(201);
      const page1 = await client.get('/v1/roles');
      expect(page1.body.roles).toHaveLength(20);
      const next = new URL(page1.body.next);
      const page2 = await client.get(next.pathname + next.search);
      expect(page2.body.roles).toHaveLength(3);
      expect(page2.body.next).toBeUndefined();
      const names = new Set([...page1.body.roles, ...page2.body.roles].map((r: { name: string }) => r.name));
      expect(names.size).toBe(23);
      expect(names).toContain('full_access');
    });
  });

  describe('GET /v1/permissions', () => {
    it("returns the account's master set", async () => {
      const res = await api.get('/v1/permissions');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ list: 'account', permissions: [...PERMISSIONS] });
      expect(res.body.permissions).toHaveLength(30);
    });

    it("with list=user returns the calling user's role permissions", async () => {
      const name = roleName('viewer');
      await api.post('/v1/roles', { name, permissions: ['checks.country_mx', 'checks.behavior'] });
      const user = await api.post('/v1/account/users', {
        email: `viewer.${randomUUID().slice(0, 6)}@example.com`,
        role: name,
      });
      const key = mintKey({ tenant_id: tenantA.tenantId, sub: user.body.user.user_id });
      await eventually(async () => expect((await api.withKey(key).get('/v1/auth/whoami')).status).toBe(200));
      const res = await api.withKey(key).get('/v1/permissions?list=user');
      expect(res.body).toEqual({ list: 'user', role: name, permissions: ['checks.behavior', 'checks.country_mx'] });
      expect((await api.withKey(key).get('/v1/permissions')).body.permissions).toHaveLength(30);
      expect((await api.get('/v1/permissions?list=user')).body.permissions).toEqual([...GRANTING_PERMISSIONS].sort());
    });

    it('documents the users, roles, permissions and billing-hub endpoints in the OpenAPI document', async () => {
      const doc = await new ApiClient(account.url).get('/docs/openapi.json');
      expect(doc.status).toBe(200);
      expect(Object.keys(doc.body.paths)).toEqual(
        expect.arrayContaining([
          '/v1/account/users',
          '/v1/account/users/{username}',
          '/v1/account/users/{username}/status',
          '/v1/roles',
          '/v1/roles/{role_name}',
          '/v1/permissions',
          '/v1/account/settings/billing-hubs',
          '/v1/admin/tenants/{tenant_id}',
        ]),
      );
    });

    it('refuses an unknown list value with 400 naming list', async () => {
      const res = await api.get('/v1/permissions?list=everyone');
      expect([res.status, res.body.fields]).toEqual([400, [{ field: 'list', message: expect.any(String) }]]);
    });
  });
});
