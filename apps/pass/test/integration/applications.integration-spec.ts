import { ApiClient, closeDb, db, eventually, signer } from '@kyc/testing';

import { PassFixture, seedUser, startPass } from './support/pass-fixture';

/** The applications admin API (platform operator) and the provider's sealed signing keys. */
describe('pass: applications admin API', () => {
  let f: PassFixture;
  const valid = () => ({
    tenant_id: 'acme',
    name: 'Acme web',
    redirect_uris: ['https://acme.example/callback'],
    scopes: ['openid', 'email', 'identity:full', 'document:co:passport'],
    restricted_scopes: ['validations:write'],
    allows_web_message: true,
    allowed_web_message_origins: ['https://acme.example'],
    allowed_email_domains: ['acme.example'],
    required_acr: 'urn:pass:loa:2',
    max_auth_age: 3600,
    ciba_enabled: true,
  });
  const count = async () => (await db().query(`SELECT count(*)::int AS n FROM pass.applications`)).rows[0].n as number;

  beforeAll(async () => {
    f = await startPass();
  });

  afterAll(async () => {
    await f?.close();
    await closeDb();
  });

  it('registers an application, shows the client secret once and stores it sealed', async () => {
    const res = await f.operator.postJson('/v1/admin/applications', valid());
    expect(res.status).toBe(201);
    const { application } = res.body;
    expect(application).toMatchObject({
      client_id: expect.stringMatching(/^pc_[0-9a-f]{24}$/),
      client_secret: expect.stringMatching(/^ps_/),
      // aliases are stored in their flat form
      scopes: ['openid', 'email', 'identity', 'document:co:passport'],
      restricted_scopes: ['validations:write'],
      required_acr: 'urn:pass:loa:2',
      ciba_enabled: true,
    });
    const row = (await db().query(`SELECT * FROM pass.applications WHERE client_id = $1`, [application.client_id]))
      .rows[0];
    expect(row.client_secret_sealed).not.toContain(application.client_secret.slice(3));
    const read = await f.operator.get(`/v1/admin/applications/${application.client_id}`);
    expect(read.status).toBe(200);
    expect(read.body.application).not.toHaveProperty('client_secret');
  });

  it('rotates the client secret (shown once again) and updates the policy fields', async () => {
    const created = (await f.operator.postJson('/v1/admin/applications', valid())).body.application;
    const rotated = await f.operator.post(`/v1/admin/applications/${created.client_id}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.application.client_secret).not.toBe(created.client_secret);
    const patched = await f.operator.request<{ application: Record<string, unknown> }>(
      'PATCH',
      `/v1/admin/applications/${created.client_id}`,
      { required_acr: null, ciba_enabled: false, scopes: ['openid'] },
      { 'content-type': 'application/json' },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.application).toMatchObject({ required_acr: null, ciba_enabled: false, scopes: ['openid'] });
  });

  it('an edit, a new secret and a deletion take effect on the provider (within the 5 s client cache)', async () => {
    const person = await seedUser(f.operator);
    const created = (
      await f.operator.postJson('/v1/admin/applications', {
        ...valid(),
        required_acr: undefined,
        max_auth_age: undefined,
      })
    ).body.application;
    const client = new ApiClient(f.pass.url);
    const bcAuthorize = (secret = created.client_secret as string) =>
      client.post('/v1/oauth2/bc-authorize', {
        client_id: created.client_id,
        client_secret: secret,
        login_hint: person.email,
        scope: 'openid email',
      });
    const first = await bcAuthorize();
    if (first.status !== 200) throw new Error(JSON.stringify(first.body));
    const patch = (body: Record<string, unknown>) =>
      f.operator.request('PATCH', `/v1/admin/applications/${created.client_id}`, body, {
        'content-type': 'application/json',
      });
    expect((await patch({ ciba_enabled: false })).status).toBe(200);
    // CIBA off: oidc-provider refuses the backchannel request (400 invalid_request, no message sent)
    await eventually(
      async () => {
        const res = await bcAuthorize();
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('invalid_request');
      },
      { timeoutMs: 10_000, intervalMs: 500 },
    );
    expect((await patch({ ciba_enabled: true })).status).toBe(200);
    const rotated = (await f.operator.post(`/v1/admin/applications/${created.client_id}/secret`)).body.application;
    await eventually(
      async () => {
        expect((await bcAuthorize(rotated.client_secret)).status).toBe(200);
        expect((await bcAuthorize()).status).toBe(401);
      },
      { timeoutMs: 10_000, intervalMs: 500 },
    );
    expect((await f.operator.request('DELETE', `/v1/admin/applications/${created.client_id}`)).status).toBe(200);
    await eventually(
      async () => {
        const res = await bcAuthorize(rotated.client_secret);
        expect(res.status).toBe(401);
        expect(res.body.error).toBe('invalid_client');
      },
      { timeoutMs: 10_000, intervalMs: 500 },
    );
  }, 60_000);

  it('refuses an invalid edit with 400 and changes nothing', async () => {
    const created = (await f.operator.postJson('/v1/admin/applications', valid())).body.application;
    for (const change of [
      { redirect_uris: [] },
      { scopes: ['validations:write'] },
      { allowed_web_message_origins: ['https://acme.example/x'] },
      { required_acr: 'gold' },
      { max_auth_age: 10 },
      { ciba_enabled: 'yes' },
    ]) {
      const res = await f.operator.request('PATCH', `/v1/admin/applications/${created.client_id}`, change, {
        'content-type': 'application/json',
      });
      expect(res.status).toBe(400);
      expect((res.body as { fields: { field: string }[] }).fields.map((x) => x.field)).toContain(
        Object.keys(change)[0],
      );
    }
    const stored = (await f.operator.get(`/v1/admin/applications/${created.client_id}`)).body.application;
    expect(stored).toEqual({ ...created, client_secret: undefined, updated_at: stored.updated_at });
  });

  it('lists applications of a tenant with pagination links and deletes one', async () => {
    const created = (await f.operator.postJson('/v1/admin/applications', { ...valid(), tenant_id: 'listing' })).body
      .application;
    await f.operator.postJson('/v1/admin/applications', { ...valid(), tenant_id: 'listing' });
    const page = await f.operator.get('/v1/admin/applications?tenant_id=listing&limit=1');
    expect(page.status).toBe(200);
    expect(page.body.applications).toHaveLength(1);
    expect(page.body.next).toContain('start_key=');
    const deleted = await f.operator.delete(`/v1/admin/applications/${created.client_id}`);
    expect(deleted.status).toBe(200);
    expect((await f.operator.get(`/v1/admin/applications/${created.client_id}`)).status).toBe(404);
  });

  it('answers 404 application_not_found for an unknown client_id', async () => {
    const res = await f.operator.get('/v1/admin/applications/pc_000000000000000000000000');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, error_code: 'application_not_found' });
  });

  it('needs a platform operator token', async () => {
    const before = await count();
    const anonymous = await new ApiClient(f.pass.url).postJson('/v1/admin/applications', valid());
    expect(anonymous.status).toBe(401);
    const tenantKey = await new ApiClient(f.pass.url, 'not-a-key').postJson('/v1/admin/applications', valid());
    expect(tenantKey.status).toBe(401);
    expect(await count()).toBe(before);
  });

  describe('refuses invalid input with 400 and stores nothing', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['a missing tenant_id', { tenant_id: undefined }, 'tenant_id'],
      ['an empty name', { name: '' }, 'name'],
      ['no redirect URI', { redirect_uris: [] }, 'redirect_uris'],
      ['a redirect URI with a fragment', { redirect_uris: ['https://acme.example/cb#x'] }, 'redirect_uris'],
      ['a plain-http redirect URI off localhost', { redirect_uris: ['http://acme.example/cb'] }, 'redirect_uris'],
      ['an unknown scope', { scopes: ['openid', 'made-up'] }, 'scopes'],
      ['a restricted scope among the scopes', { scopes: ['openid', 'validations:write'] }, 'scopes'],
      ['a document filter with an uppercase country', { scopes: ['document:CO:passport'] }, 'scopes'],
      ['an unknown restricted scope', { restricted_scopes: ['admin'] }, 'restricted_scopes'],
      [
        'a web-message origin with a path',
        { allowed_web_message_origins: ['https://acme.example/x'] },
        'allowed_web_message_origins',
      ],
      ['an e-mail domain with uppercase', { allowed_email_domains: ['Acme.example'] }, 'allowed_email_domains'],
      ['an unknown acr', { required_acr: 'gold' }, 'required_acr'],
      ['a max_auth_age under a minute', { max_auth_age: 10 }, 'max_auth_age'],
      ['a non-boolean ciba_enabled', { ciba_enabled: 'yes' }, 'ciba_enabled'],
    ];
    it.each(cases)('%s', async (_what, change, field) => {
      const before = await count();
      const res = await f.operator.postJson('/v1/admin/applications', { ...valid(), ...change });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(400);
      expect(res.body.fields.map((x: { field: string }) => x.field)).toContain(field);
      expect(await count()).toBe(before);
    });
  });

  describe('PKCE and public applications', () => {
    it('requires PKCE by default for a new application; the operator may turn it off for a confidential one', async () => {
      const created = (await f.operator.postJson('/v1/admin/applications', valid())).body.application;
      expect(created).toMatchObject({ public_client: false, require_pkce: true });
      const patched = await f.operator.request<{ application: Record<string, unknown> }>(
        'PATCH',
        `/v1/admin/applications/${created.client_id}`,
        { require_pkce: false },
        { 'content-type': 'application/json' },
      );
      expect(patched.body.application).toMatchObject({ require_pkce: false });
    });

    it('registers a public application without a secret; PKCE stays on, no CIBA, no secret to rotate', async () => {
      const res = await f.operator.postJson('/v1/admin/applications', {
        ...valid(),
        ciba_enabled: false,
        public_client: true,
      });
      expect(res.status).toBe(201);
      const { application } = res.body;
      expect(application).toMatchObject({ public_client: true, require_pkce: true, client_secret: null });
      const patch = (body: Record<string, unknown>) =>
        f.operator.request('PATCH', `/v1/admin/applications/${application.client_id}`, body, {
          'content-type': 'application/json',
        });
      for (const [body, field] of [
        [{ require_pkce: false }, 'require_pkce'],
        [{ ciba_enabled: true }, 'ciba_enabled'],
      ] as const) {
        const refused = await patch(body);
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({ error_code: 'validation_failed', fields: [{ field }] });
      }
      const rotate = await f.operator.post(`/v1/admin/applications/${application.client_id}/secret`);
      expect(rotate.status).toBe(409);
      expect(rotate.body).toMatchObject({ code: 409, error_code: 'public_client' });
      const before = await count();
      const ciba = await f.operator.postJson('/v1/admin/applications', { ...valid(), public_client: true });
      expect(ciba.status).toBe(400);
      expect(ciba.body.fields).toEqual([{ field: 'ciba_enabled', message: expect.any(String) }]);
      expect(await count()).toBe(before);
    });
  });

  describe('signing keys', () => {
    it('generates the signing key once, stores it sealed, and keeps it across restarts', async () => {
      const keys = (await db().query(`SELECT kid, sealed_jwk FROM pass.signing_keys WHERE status = 'active'`)).rows;
      expect(keys).toHaveLength(1);
      expect(keys[0].sealed_jwk).toMatch(/^v1\./);
      expect(keys[0].sealed_jwk).not.toContain('"d"');
    });

    it('rotates the signing key on the operator request', async () => {
      const before = (await db().query(`SELECT kid FROM pass.signing_keys WHERE status = 'active'`)).rows[0].kid;
      const res = await f.operator.post('/v1/admin/signing-keys/rotate');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ kid: expect.any(String), retired: [before] });
      const active = (await db().query(`SELECT kid FROM pass.signing_keys WHERE status = 'active'`)).rows;
      expect(active).toEqual([{ kid: res.body.kid }]);
      expect((await new ApiClient(f.pass.url, await signer().platformAdminToken('x')).get('/health')).status).toBe(200);
    });
  });
});
