import { PERMISSIONS } from '@kyc/contracts';
import { ApiKeySigner, generateSigningKeys } from '@kyc/platform';
import {
  ApiClient,
  closeDb,
  createRoleUser,
  createTenant,
  db,
  eventually,
  mintKey,
  RunningService,
  startInProcess,
  startService,
  TestTenant,
  updateRole,
} from '@kyc/testing';

import { checksService } from '../../src/app.module';

const person = { country: 'CO', type: 'person', user_authorized: 'true', first_name: 'Ana', last_name: 'Perez' };
let nationalId = 1_000_000;
const nextPerson = () => ({ ...person, national_id: String(nationalId++) });
/** A Brazilian person: the national_id is an 11-digit CPF (its 9th digit gives the region searched). */
const nextBrPerson = () => ({ ...person, country: 'BR', national_id: `5${String(nationalId++).padStart(10, '0')}` });

describe('checks API through the platform (auth, envelope, tenancy, idempotency)', () => {
  let checks: RunningService;
  let account: Awaited<ReturnType<typeof startInProcess>>;
  let identity: RunningService;
  let tenantA: TestTenant;
  let tenantB: TestTenant;
  let api: ApiClient;

  beforeAll(async () => {
    [account, checks, identity] = await Promise.all([
      startService('account', { KAFKA_CONSUMER_GROUP: 'account-checks-api-spec' }),
      startInProcess('checks', checksService, { CHECKS_DEDUP_WINDOW_SECONDS: '600' }),
      startService('identity'),
    ]);
    [tenantA, tenantB] = await Promise.all([
      createTenant(account.url, [checks.url, identity.url]),
      createTenant(account.url, [checks.url]),
    ]);
    api = new ApiClient(checks.url, tenantA.apiKey);
  });

  afterAll(async () => {
    await Promise.all([checks?.close(), account?.close(), identity?.close()]);
    await closeDb();
  });

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

  describe('checks', () => {
    it('requires user_authorized=true with a version-1 key, not with version 0', async () => {
      const { user_authorized: _, ...withoutConsent } = nextPerson();
      const v1 = await api.post('/v1/checks', withoutConsent);
      expect(v1.status).toBe(400);
      expect(v1.body.fields).toEqual([{ field: 'user_authorized', message: expect.any(String) }]);
      const v0 = await api.withKey(tenantA.apiKeyV0).post('/v1/checks', withoutConsent);
      expect(v0.status).toBe(201);
      const refused = await api
        .withKey(tenantA.apiKeyV0)
        .post('/v1/checks', { ...withoutConsent, user_authorized: 'false' });
      expect(refused.status).toBe(400);
    });

    it('creates a check, completes it through the worker and returns it by id', async () => {
      const created = await api.post('/v1/checks', nextPerson());
      expect(created.status).toBe(201);
      expect(created.body.check).toMatchObject({ country: 'CO', type: 'person', status: 'not_started', score: 0 });
      const id = created.body.check.check_id;
      const done = await eventually(async () => {
        const res = await api.get(`/v1/checks/${id}`);
        expect(res.body.check.status).toBe('completed');
        return res;
      });
      expect(done.body.check.score).toBeGreaterThanOrEqual(0);
    });

    it('answers GET /v1/checks/{id} with exactly the check the list shows, before and after it completes, for every type', async () => {
      const reportId = `same-shape-${nationalId}`;
      const bodies = [
        { ...nextPerson(), report_id: reportId, custom_input: 'ref-1' },
        {
          country: 'CO',
          type: 'vehicle',
          user_authorized: 'true',
          license_plate: `ABC${nationalId++ % 1000}`,
          report_id: reportId,
        },
        { country: 'CO', type: 'company', user_authorized: 'true', tax_id: String(nationalId++), report_id: reportId },
      ];
      const created = await Promise.all(bodies.map((b) => api.post('/v1/checks', b)));
      expect(created.map((r) => r.status)).toEqual([201, 201, 201]);
      const ids = created.map((r) => r.body.check.check_id as string);
      // GET each check between two identical lists (the engine may move a check on in between).
      const sameAsList = async () => {
        for (let attempt = 0; attempt < 50; attempt++) {
          const list = async () =>
            (await api.get(`/v1/checks?report_id=${reportId}`)).body.checks as { check_id: string; status: string }[];
          const before = await list();
          const got = await Promise.all(ids.map((id) => api.get(`/v1/checks/${id}`)));
          const after = await list();
          if (JSON.stringify(before) !== JSON.stringify(after)) continue;
          got.forEach((res, i) => {
            expect(res.headers.get('content-type')).toMatch(/^application\/json/);
            expect(res.body).toEqual({
              check: after.find((c) => c.check_id === ids[i]),
              details: `/v1/checks/${ids[i]}/details`,
              self: `/v1/checks/${ids[i]}`,
            });
          });
          return after;
        }
        throw new Error('the checks kept changing between two lists');
      };
      await sameAsList();
      const done = await eventually(async () => {
        const listed = await sameAsList();
        expect(listed.map((c) => c.status)).toEqual(['completed', 'completed', 'completed']);
        return listed as any[];
      });
      expect(done.every((c) => c.scores.length > 0 && Array.isArray(c.statuses) && c.summary)).toBe(true);
    });

    it('returns the recent identical check unless force_creation is true', async () => {
      const inputs = nextPerson();
      const first = await api.post('/v1/checks', inputs);
      const again = await api.post('/v1/checks', inputs);
      expect(again.body.check.check_id).toBe(first.body.check.check_id);
      const forced = await api.post('/v1/checks', { ...inputs, force_creation: 'true' });
      expect(forced.body.check.check_id).not.toBe(first.body.check.check_id);
      // Two recent checks with these inputs now: the newest is the one returned.
      const third = await api.post('/v1/checks', inputs);
      expect(third.body.check.check_id).toBe(forced.body.check.check_id);
    });

    it('stores concurrent creations together (group commit): each its own check, event and start job; an unknown custom type fails alone', async () => {
      const bodies = Array.from({ length: 40 }, () => nextPerson());
      const responses = await Promise.all([
        ...bodies.map((b) => api.post('/v1/checks', b)),
        api.post('/v1/checks', { ...nextPerson(), type: 'no-such-type' }),
      ]);
      const bad = responses.pop()!;
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 400, fields: [expect.objectContaining({ field: 'type' })] });
      expect(responses.map((r) => r.status)).toEqual(bodies.map(() => 201));
      const ids = responses.map((r) => r.body.check.check_id);
      expect(new Set(ids).size).toBe(40);
      responses.forEach((r, i) => expect(r.body.check.national_id).toBe(bodies[i].national_id));
      const { rows: stored } = await db().query(
        `SELECT c.id, c.inputs->>'national_id' AS national_id FROM checks.checks c WHERE c.id = ANY($1)`,
        [ids],
      );
      expect(Object.fromEntries(stored.map((s: { id: string; national_id: string }) => [s.id, s.national_id]))).toEqual(
        Object.fromEntries(ids.map((id, i) => [id, bodies[i].national_id])),
      );
      const {
        rows: [{ events }],
      } = await db().query(
        `SELECT count(*)::int AS events FROM checks.outbox WHERE type = 'checks.check.created' AND message_key = ANY($1)`,
        [ids],
      );
      const {
        rows: [{ jobs }],
      } = await db().query(
        `SELECT count(DISTINCT payload->>'check_id')::int AS jobs FROM checks.jobs WHERE queue = 'checks.start' AND payload->>'check_id' = ANY($1)`,
        [ids],
      );
      expect({ events, jobs }).toEqual({ events: 40, jobs: 40 });
      const {
        rows: [{ unknown }],
      } = await db().query(
        `SELECT count(*)::int AS unknown FROM checks.checks WHERE tenant_id = $1 AND type = 'no-such-type'`,
        [tenantA.tenantId],
      );
      expect(unknown).toBe(0);
    });

    it('de-duplicates identical creations sent at the same time: one check, the same answer for all', async () => {
      const inputs = nextPerson();
      const responses = await Promise.all(Array.from({ length: 6 }, () => api.post('/v1/checks', inputs)));
      const ids = new Set(responses.map((r) => r.body.check?.check_id));
      expect(ids.size).toBe(1);
      const {
        rows: [{ n }],
      } = await db().query(
        `SELECT count(*)::int AS n FROM checks.checks WHERE tenant_id = $1 AND inputs->>'national_id' = $2`,
        [tenantA.tenantId, inputs.national_id],
      );
      expect(n).toBe(1);
    });

    it('never shows one tenant the checks of another (404, as if they did not exist)', async () => {
      const created = await api.post('/v1/checks', nextPerson());
      const id = created.body.check.check_id;
      const other = api.withKey(tenantB.apiKey);
      const res = await other.get(`/v1/checks/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 404, error_code: 'check_not_found' });
      const list = await other.get('/v1/checks');
      expect(list.body.checks.map((c: { check_id: string }) => c.check_id)).not.toContain(id);
    });

    it('pages the list with start_key and a next link', async () => {
      const tenant = await createTenant(account.url, [checks.url]);
      const client = api.withKey(tenant.apiKey);
      for (let i = 0; i < 23; i++) expect((await client.post('/v1/checks', nextPerson())).status).toBe(201);
      const page1 = await client.get('/v1/checks');
      expect(page1.body.checks).toHaveLength(20);
      expect(page1.body.next).toContain('start_key=');
      const page2 = await client.get(new URL(page1.body.next).pathname + new URL(page1.body.next).search);
      expect(page2.body.checks).toHaveLength(3);
      expect(page2.body.next).toBeUndefined();
      const ids = new Set([...page1.body.checks, ...page2.body.checks].map((c: { check_id: string }) => c.check_id));
      expect(ids.size).toBe(23);
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

  describe('Idempotency-Key', () => {
    it('replays the stored response for the same key and body without creating another check', async () => {
      const body = nextPerson();
      const first = await api.post('/v1/checks', { ...body, force_creation: 'true' }, { 'Idempotency-Key': 'idem-1' });
      const replay = await api.post('/v1/checks', { ...body, force_creation: 'true' }, { 'Idempotency-Key': 'idem-1' });
      expect(first.status).toBe(201);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
      const rows = await db().query(
        `SELECT count(*)::int AS n FROM checks.checks WHERE tenant_id = $1 AND inputs->>'national_id' = $2`,
        [tenantA.tenantId, body.national_id],
      );
      expect(rows.rows[0].n).toBe(1);
    });

    it('answers 422 when the same key comes with a different body', async () => {
      await api.post('/v1/checks', nextPerson(), { 'Idempotency-Key': 'idem-2' });
      const res = await api.post('/v1/checks', nextPerson(), { 'Idempotency-Key': 'idem-2' });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 422, error_code: 'idempotency_key_reused' });
    });

    it('keeps no claim for a request refused by validation (the corrected request goes through), and keys are per tenant', async () => {
      const bad = { country: 'XX', type: 'person' };
      const first = await api.post('/v1/checks', bad, { 'Idempotency-Key': 'idem-3' });
      expect(first.status).toBe(400);
      const corrected = await api.post('/v1/checks', nextPerson(), { 'Idempotency-Key': 'idem-3' });
      expect(corrected.status).toBe(201);
      expect(corrected.headers.get('idempotent-replayed')).toBeNull();
      const again = await api.post('/v1/checks', bad, { 'Idempotency-Key': 'idem-3' });
      expect(again.status).toBe(422);
      const otherTenant = await api
        .withKey(tenantB.apiKey)
        .post('/v1/checks', nextPerson(), { 'Idempotency-Key': 'idem-3' });
      expect(otherTenant.status).toBe(201);
    });
  });
});
