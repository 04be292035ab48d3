import { randomUUID } from 'node:crypto';

import { ApiClient, closeDb, createTenant, db, freePort, ServiceProcess, startProcess, TestTenant } from '@kyc/testing';

import { startAccount, waitFor } from './support/customers-helpers';

const PROFILES = 100_000;
const STEP = 1_000;
/**
 * The compute job's lease: longer than the whole compute, short enough for the test to wait it out. On
 * CI, with two suites side by side, the 100,000-profile compute took 10-20 s; a lease it outlives lets the
 * same process take the job a second time while the first attempt still runs.
 */
const LEASE_MS = 40_000;

/**
 * A segment compute is a durable job that commits its members and progress step by step: when the
 * service process is killed (SIGKILL, no shutdown) in the middle of a compute, another process takes
 * the job up once its lease expires, resumes at the committed cursor and completes with exactly the
 * right members, matched count and progress (a step that was in flight is rolled back, none counts twice).
 */
describe('segment compute survives the death of its process', () => {
  let account: ServiceProcess;
  let customers: ServiceProcess | undefined;
  let tenant: TestTenant;

  const env = () => ({
    KAFKA_CONSUMER_GROUP: `customers-${randomUUID().slice(0, 8)}`,
    JOBS_POLL_MS: '100',
    CUSTOMERS_SEGMENT_SQL_CHUNK: String(STEP),
    CUSTOMERS_SEGMENT_LEASE_MS: String(LEASE_MS),
  });

  beforeAll(async () => {
    [account, customers] = await Promise.all([
      startAccount(),
      freePort().then((port) => startProcess('customers', port, env())),
    ]);
    tenant = await createTenant(account.url, [customers.url]);
    await db().query(
      `INSERT INTO customers.profiles (id, tenant_id, country, tags, created_at, updated_at)
       SELECT 'CUS' || lpad(g::text, 7, '0'), $1, (ARRAY['CO','MX','BR'])[1 + g % 3],
              CASE WHEN g % 5 = 0 THEN ARRAY['vip'] ELSE ARRAY['lead'] END, now(), now()
         FROM generate_series(1, $2) AS g`,
      [tenant.tenantId, PROFILES],
    );
  }, 300_000);

  afterAll(async () => {
    await customers?.close();
    await account?.close();
    await closeDb();
  });

  it('resumes at its cursor after kill -9 and completes with the right members and progress', async () => {
    const api = new ApiClient(customers!.url, tenant.apiKey);
    const rule = { and: [{ '==': [{ var: 'country' }, 'CO'] }, { in: ['vip', { var: 'tags' }] }] };
    const id = (await api.postJson('/v1/customers/segments', { name: 'CO vip', rule })).body.segment.segment_id;
    const progress = async () =>
      (
        await db().query(
          `SELECT compute_status AS status, compute_processed AS processed, compute_matched AS matched, compute_cursor AS cursor
             FROM customers.segments WHERE id = $1`,
          [id],
        )
      ).rows[0] as { status: string; processed: number; matched: number; cursor: string | null };

    expect((await api.post(`/v1/customers/segments/${id}/compute`)).status).toBe(202);
    // Kill the process as soon as some steps have committed, well before the end.
    let before = await progress();
    for (let i = 0; i < 6_000 && before.processed < 3 * STEP; i++) {
      await new Promise((r) => setTimeout(r, 10));
      before = await progress();
    }
    await customers!.kill('SIGKILL');
    customers = undefined;
    before = await progress();
    expect(before.status).toBe('running');
    expect(before.processed).toBeGreaterThan(0);
    expect(before.processed).toBeLessThan(PROFILES);
    expect(before.processed % STEP).toBe(0);

    // Another process takes the job up when its lease expires and resumes at the cursor.
    customers = await startProcess('customers', await freePort(), env());
    const restarted = new ApiClient(customers.url, tenant.apiKey);
    const done = await waitFor(async () => {
      const s = (await restarted.get(`/v1/customers/segments/${id}`)).body.segment;
      expect(s.compute.status).toBe('completed');
      return s;
    }, LEASE_MS + 90_000);

    const expected = (
      await db().query(
        `SELECT id FROM customers.profiles WHERE tenant_id = $1 AND country = 'CO' AND 'vip' = ANY(tags) ORDER BY id`,
        [tenant.tenantId],
      )
    ).rows.map((r: { id: string }) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(done).toMatchObject({
      members_count: expected.length,
      compute: { status: 'completed', total: PROFILES, processed: PROFILES, matched: expected.length, progress: 1 },
    });
    const stored = (
      await db().query(
        `SELECT m.profile_id FROM customers.segment_members m JOIN customers.segments s ON s.members_compute_id = m.compute_id
          WHERE s.id = $1 ORDER BY m.profile_id`,
        [id],
      )
    ).rows.map((r: { profile_id: string }) => r.profile_id);
    expect(stored).toEqual(expected);
    // The same job was taken up again (a second attempt), not a new compute.
    // (The job is marked done in its own statement, just after the compute's last step commits.)
    const job = await waitFor(async () => {
      const row = (
        await db().query(
          `SELECT attempts, status, last_error FROM customers.jobs WHERE queue = 'customers.segment-compute' AND payload->>'segmentId' = $1`,
          [id],
        )
      ).rows[0];
      expect(row).toMatchObject({ status: 'completed' });
      return row;
    }, 10_000);
    expect(job.attempts).toBeGreaterThanOrEqual(2);
  }, 400_000);
});
