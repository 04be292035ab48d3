import { PERMISSIONS } from '@kyc/contracts';
import { ApiKeySigner, generateSigningKeys } from '@kyc/platform';
import { ApiClient, createRoleUser, createTenant, db, eventually, mintKey, updateRole } from '@kyc/testing';

import { account, api, checks, identity, nextBrPerson, nextPerson, tenantA, useChecksApi } from './checks-api-fixture';

describe('checks API through the platform (auth, envelope, tenancy, idempotency)', () => {
  useChecksApi();

  describe('authentication', () => {
    it('refuses a request without Service-API-Key with 401 in the envelope', async () => {
      const res = await api.withKey(undefined).get('/v1/checks');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 401,
        status: 'Unauthorized',
        message: expect.any(String),
        error_code: 'missing_api_key',
      });
    });

    it('refuses a forged key (signed with another private key)', async () => {
      const forged = await new ApiKeySigner(generateSigningKeys().privateKey).sign({
        jti: 'KEYx',
        sub: tenantA.adminUserId,
        tenant_id: tenantA.tenantId,
        key_type: 'backend',
        ver: 1,
        iat: 1,
      });
      const res = await api.withKey(forged).get('/v1/checks');
      expect(res.status).toBe(401);
      expect(res.body.error_code).toBe('invalid_api_key');
    });

    it('refuses a malformed key', async () => {
      expect((await api.withKey('abc.def').get('/v1/checks')).status).toBe(401);
    });

    it('refuses an expired key', async () => {
      const expired = mintKey({
        tenant_id: tenantA.tenantId,
        sub: tenantA.adminUserId,
        exp: Math.floor(Date.now() / 1000) - 1,
      });
      const res = await api.withKey(expired).get('/v1/checks');
      expect(res.status).toBe(401);
      expect(res.body.error_code).toBe('expired_api_key');
    });

    it('refuses a key whose user does not exist in the tenant', async () => {
      const res = await api.withKey(mintKey({ tenant_id: tenantA.tenantId, sub: 'no-such-user' })).get('/v1/checks');
      expect(res.status).toBe(401);
    });

    it('accepts the truora-api-key header as an alias', async () => {
      expect((await api.withKey(undefined).get('/v1/checks', { 'Truora-API-Key': tenantA.apiKey })).status).toBe(200);
    });

    it('stops accepting a key in every service within 2 seconds of its revocation in identity', async () => {
      const issued = await new ApiClient(identity.url, tenantA.apiKey).post('/v1/api-keys', {
        key_type: 'backend',
        key_name: 'temp',
        api_key_version: 1,
      });
      expect(issued.status).toBe(201);
      const key = issued.body.api_key as string;
      expect((await api.withKey(key).get('/v1/checks')).status).toBe(200);
      const revoked = await new ApiClient(identity.url, tenantA.apiKey).delete(`/v1/api-keys/${issued.body.key_id}`);
      expect(revoked.status).toBe(200);
      const t0 = Date.now();
      await eventually(
        async () => expect((await api.withKey(key).get('/v1/checks')).body.error_code).toBe('revoked_api_key'),
        { timeoutMs: 2_000, intervalMs: 50 },
      );
      expect(Date.now() - t0).toBeLessThan(2_000);
      expect((await api.get('/v1/checks')).status).toBe(200);
    });
  });

  describe('the error envelope', () => {
    it('lists every offending field of a bad create, and stores nothing', async () => {
      const before = await db().query(`SELECT count(*)::int AS n FROM checks.checks WHERE tenant_id = $1`, [
        tenantA.tenantId,
      ]);
      const res = await api.post('/v1/checks', {
        country: 'XX',
        type: 'person',
        user_authorized: 'maybe',
        date_of_birth: '1990-02-31x',
        custom_input: 'x'.repeat(129),
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 400, status: 'Bad Request', error_code: 'validation_failed' });
      expect(res.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
        'country',
        'custom_input',
        'date_of_birth',
        'user_authorized',
      ]);
      const after = await db().query(`SELECT count(*)::int AS n FROM checks.checks WHERE tenant_id = $1`, [
        tenantA.tenantId,
      ]);
      expect(after.rows[0].n).toBe(before.rows[0].n);
    });

    it('answers unknown routes with 404 in the envelope', async () => {
      const res = await api.get('/v1/does-not-exist');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 404, status: 'Not Found', error_code: 'not_found' });
    });

    it('answers a malformed JSON body with 400 in the envelope, without internals', async () => {
      const res = await api.request('POST', '/v1/checks', undefined, { 'content-type': 'application/json' });
      const bad = await fetch(`${checks.url}/v1/checks`, {
        method: 'POST',
        headers: { 'Service-API-Key': tenantA.apiKey, 'content-type': 'application/json' },
        body: '{"country":',
      });
      expect(bad.status).toBe(400);
      const body = await bad.json();
      expect(body).toMatchObject({ code: 400, status: 'Bad Request' });
      expect(JSON.stringify(body)).not.toMatch(/at .*\.js|node_modules/);
      expect(res.status).toBe(400);
    });
  });

  describe('authorization', () => {
    it('applies a role change in the checks service within 2 seconds (access cache over Kafka)', async () => {
      const tenant = await createTenant(account.url, [checks.url]);
      const user = await createRoleUser(account.url, tenant, { name: 'checker', permissions: PERMISSIONS }, [
        checks.url,
      ]);
      const client = api.withKey(user.apiKey);
      expect((await client.post('/v1/checks', nextBrPerson())).status).toBe(201);
      await updateRole(account.url, tenant, 'checker', { permissions: ['checks.country_co'] });
      const t0 = Date.now();
      await eventually(async () => expect((await client.post('/v1/checks', nextBrPerson())).status).toBe(403), {
        timeoutMs: 2_000,
        intervalMs: 50,
      });
      expect(Date.now() - t0).toBeLessThan(2_000);
      const forbidden = await client.post('/v1/checks', nextBrPerson());
      expect(forbidden.body).toMatchObject({ code: 403, error_code: 'forbidden' });
      expect(forbidden.body.message).toContain('checks.country_br');
      expect((await client.post('/v1/checks', nextPerson())).status).toBe(201);
    });
  });
});
