import { randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';

import { canonicalJson, IDEMPOTENCY_LEASE_SECONDS, storedKey } from '@kyc/platform';

import { ApiClient, closeDb, createTenant, db, freePorts, ServiceProcess, startProcess, TestTenant } from '../../src';

/**
 * Issue 16, point 5: an Idempotency-Key claim survives a crash (a lease) and comes after
 * validation (a refused request keeps no claim), and stored replays keep no secret in clear.
 */
describe('Idempotency-Key (platform, every service)', () => {
  let account: ServiceProcess;
  let identity: ServiceProcess;
  let tenant: TestTenant;
  let acc: ApiClient;
  let idn: ApiClient;

  const storedRow = async (schema: string, key: string) =>
    (
      await db().query(
        `SELECT key, status_code, response::text AS response FROM ${schema}.idempotency_keys WHERE tenant_id = $1 AND key = $2`,
        [tenant.tenantId, storedKey(key)],
      )
    ).rows[0] as { key: string; status_code: number | null; response: string | null } | undefined;

  beforeAll(async () => {
    const [a, i] = await freePorts(2);
    [account, identity] = await Promise.all([startProcess('account', a), startProcess('identity', i)]);
    tenant = await createTenant(account.url, [account.url, identity.url]);
    acc = new ApiClient(account.url, tenant.apiKey);
    idn = new ApiClient(identity.url, tenant.apiKey);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([account?.close(), identity?.close()]);
    await closeDb();
  });

  it('stores neither the issued API key nor the key itself in clear, and still replays the answer', async () => {
    const key = `idem-${randomUUID()}`;
    const first = await idn.post('/v1/api-keys', { key_type: 'backend', name: 'ci' }, { 'Idempotency-Key': key });
    expect(first.status).toBeLessThan(300);
    const issued = JSON.stringify(first.body).match(/"(eyJ[\w.-]+)"/)?.[1];
    expect(issued).toBeDefined();
    const row = await storedRow('identity', key);
    expect(row?.status_code).toBe(first.status);
    expect(row!.key).not.toContain(key);
    expect(row!.response).not.toContain(issued!.split('.')[1]);
    const replay = await idn.post('/v1/api-keys', { key_type: 'backend', name: 'ci' }, { 'Idempotency-Key': key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('stores no whsec_ signing secret in clear for a rotation, and replays it', async () => {
    const key = `idem-${randomUUID()}`;
    const first = await acc.post('/v1/bre/signing-secret/rotate', {}, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(JSON.stringify(first.body)).toContain('whsec_');
    const row = await storedRow('account', key);
    expect(row?.response).toBeDefined();
    expect(row!.response).not.toContain('whsec_');
    const replay = await acc.post('/v1/bre/signing-secret/rotate', {}, { 'Idempotency-Key': key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('keeps no claim for a request refused by validation: the corrected request with the same key is processed', async () => {
    const key = `idem-${randomUUID()}`;
    const refused = await acc.post(
      '/v1/roles',
      { name: '', permissions: 'checks.behavior' },
      { 'Idempotency-Key': key },
    );
    expect(refused.status).toBe(400);
    expect(await storedRow('account', key)).toBeUndefined();
    const name = `role_${randomUUID().slice(0, 8)}`;
    const created = await acc.post('/v1/roles', { name, permissions: 'checks.behavior' }, { 'Idempotency-Key': key });
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
  });

  it('validates before claiming: a request refused for its input never writes its key', async () => {
    // With the key table locked against writes, a request that claimed its key first would wait for
    // the lock (and the test time out); an invalid one is answered because validation comes first.
    const holder = await db().connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE account.idempotency_keys IN EXCLUSIVE MODE');
      const key = `idem-${randomUUID()}`;
      const refused = await acc.post(
        '/v1/roles',
        { name: '', permissions: 'checks.behavior' },
        { 'Idempotency-Key': key },
      );
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 400, error_code: 'validation_failed' });
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  });

  it('answers 409 while a claim is within its lease, and takes over a claim whose process died (lease passed)', async () => {
    // A claim in progress as a process leaves it when it is killed mid-request: no answer stored.
    const claim = async (key: string, body: Record<string, string>, ageSeconds: number) =>
      db().query(
        `INSERT INTO account.idempotency_keys (tenant_id, key, request_hash, created_at) VALUES ($1, $2, $3, now() - make_interval(secs => $4))`,
        [
          tenant.tenantId,
          storedKey(key),
          createHash('sha256')
            .update(`POST /v1/roles\n${canonicalJson(body)}`)
            .digest('hex'),
          ageSeconds,
        ],
      );
    const live = `idem-${randomUUID()}`;
    const liveBody = { name: `r_${randomUUID().slice(0, 8)}`, permissions: 'checks.behavior' };
    await claim(live, liveBody, 1);
    const busy = await acc.post('/v1/roles', liveBody, { 'Idempotency-Key': live });
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ code: 409, error_code: 'idempotency_key_in_progress' });

    const abandoned = `idem-${randomUUID()}`;
    const name = `r_${randomUUID().slice(0, 8)}`;
    await claim(abandoned, { name, permissions: 'checks.behavior' }, IDEMPOTENCY_LEASE_SECONDS + 5);
    const taken = await acc.post(
      '/v1/roles',
      { name, permissions: 'checks.behavior' },
      { 'Idempotency-Key': abandoned },
    );
    expect(taken.status).toBe(201);
    const replay = await acc.post(
      '/v1/roles',
      { name, permissions: 'checks.behavior' },
      { 'Idempotency-Key': abandoned },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});
