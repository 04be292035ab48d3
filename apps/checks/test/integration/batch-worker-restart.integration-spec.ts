import { randomBytes } from 'node:crypto';

import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  freePort,
  RunningService,
  ServiceProcess,
  startProcess,
  startService,
} from '@kyc/testing';

import { upload, xlsx } from './batch-helpers';

/**
 * The checks service as its own OS process (from dist/), killed with SIGKILL while a batch's rows
 * are being turned into checks: restarted, it takes the orphaned chunk jobs over (their locks
 * expire) and finishes the batch with exactly one check per row.
 */
describe('a batch worker killed mid-batch', () => {
  let account: RunningService;
  let checks: ServiceProcess;
  let port: number;
  const ROWS = 1_500;
  const env = {
    CHECKS_WORKER_LOCK_MS: '1500',
    JOBS_POLL_MS: '100',
    CHECKS_SANDBOX_LATENCY_SCALE: '0',
    CHECKS_BATCH_ROWS_PER_JOB: '200',
    CHECKS_BATCH_CONCURRENCY: '2',
  };

  beforeAll(async () => {
    port = await freePort();
    [account, checks] = await Promise.all([
      startService('account', {
        KAFKA_CONSUMER_GROUP: `account-batch-restart-${randomBytes(4).toString('hex')}`,
      }),
      startProcess('checks', port, env),
    ]);
  });

  let tenantId: string | undefined;

  afterAll(async () => {
    await Promise.all([checks?.kill('SIGKILL'), account?.close()]);
    // The engine jobs of this test's checks must not hold up the next suites' workers.
    if (tenantId) await db().query(`DELETE FROM checks.jobs WHERE tenant_id = $1`, [tenantId]);
    await closeDb();
  });

  const scalar = async (sql: string, params: unknown[]) => (await db().query(sql, params)).rows[0].n as number;

  it('resumes without duplicate checks when restarted', async () => {
    const tenant = await createTenant(account.url, [checks.url]);
    tenantId = tenant.tenantId;
    const api = new ApiClient(checks.url, tenant.apiKey);
    const created = await api.post('/v1/batches', {
      country: 'CO',
      service: 'checks',
      type: 'person',
      'columns_mapping.user_authorized': 0,
      'columns_mapping.national_id': 1,
      'columns_mapping.first_name': 2,
      'columns_mapping.last_name': 3,
    });
    expect(created.status).toBe(201);
    const id = created.body.batch.batch_id;
    const rows = Array.from({ length: ROWS }, (_, i) => ['true', String(7_000_000 + i), 'Ana', 'Perez']);
    expect((await upload(created.body.file_upload_link, await xlsx(rows))).status).toBe(200);
    expect((await api.post(`/v1/batches/${id}/start`)).status).toBe(200);

    const createdRows = (status = 'created') =>
      scalar(`SELECT count(*)::int AS n FROM checks.batch_rows WHERE batch_id = $1 AND status = $2`, [id, status]);
    await eventually(async () => expect(await createdRows()).toBeGreaterThan(20), {
      timeoutMs: 30_000,
      intervalMs: 20,
    });
    await checks.kill('SIGKILL');
    const before = await createdRows();
    expect(before).toBeLessThan(ROWS);
    expect(
      await scalar(
        `SELECT count(*)::int AS n FROM checks.jobs WHERE tenant_id = $1 AND queue = 'checks.batch.rows' AND status IN ('pending', 'running')`,
        [tenant.tenantId],
      ),
    ).toBeGreaterThan(0);

    checks = await startProcess('checks', port, env);
    await eventually(
      async () =>
        expect((await api.get(`/v1/batches/${id}`)).body.batch).toMatchObject({
          status: 'completed',
          progress: { rows_created: ROWS, rows_failed: 0 },
        }),
      {
        timeoutMs: 120_000,
        intervalMs: 500,
      },
    );

    // Each row has one check, each check belongs to one row, and no other check exists.
    expect(await scalar(`SELECT count(*)::int AS n FROM checks.checks WHERE tenant_id = $1`, [tenant.tenantId])).toBe(
      ROWS,
    );
    expect(
      await scalar(`SELECT count(DISTINCT check_id)::int AS n FROM checks.batch_rows WHERE batch_id = $1`, [id]),
    ).toBe(ROWS);
    expect(
      await scalar(`SELECT count(*)::int AS n FROM checks.batch_rows WHERE batch_id = $1 AND check_id IS NULL`, [id]),
    ).toBe(0);
    const perInput = (
      await db().query(
        `SELECT inputs->>'national_id' AS nid, count(*)::int AS n FROM checks.checks WHERE tenant_id = $1 GROUP BY 1 HAVING count(*) > 1`,
        [tenant.tenantId],
      )
    ).rows;
    expect(perInput).toEqual([]);
    expect(
      await scalar(
        `SELECT count(*)::int AS n FROM checks.outbox WHERE tenant_id = $1 AND type = 'checks.check.created'`,
        [tenant.tenantId],
      ),
    ).toBe(ROWS);

    // Every check finishes (here in its start job, its databases asked inline) exactly once: one
    // finished event each, one database row per planned database, one recorded answer per answer.
    await eventually(
      async () =>
        expect(
          await scalar(`SELECT count(*)::int AS n FROM checks.checks WHERE tenant_id = $1 AND status = 'completed'`, [
            tenant.tenantId,
          ]),
        ).toBe(ROWS),
      {
        timeoutMs: 60_000,
        intervalMs: 500,
      },
    );
    expect(
      await scalar(
        `SELECT count(*)::int AS n FROM checks.outbox WHERE tenant_id = $1 AND type = 'checks.check.finished'`,
        [tenant.tenantId],
      ),
    ).toBe(ROWS);
    expect(
      await scalar(
        `SELECT count(DISTINCT message_key)::int AS n FROM checks.outbox WHERE tenant_id = $1 AND type = 'checks.check.finished'`,
        [tenant.tenantId],
      ),
    ).toBe(ROWS);
    const answered = await scalar(
      `SELECT count(*)::int AS n FROM checks.check_databases WHERE tenant_id = $1 AND status = 'completed'`,
      [tenant.tenantId],
    );
    expect(answered).toBeGreaterThan(ROWS);
    expect(
      await scalar(
        `SELECT count(*)::int AS n FROM checks.collector_runs WHERE tenant_id = $1 AND outcome = 'success'`,
        [tenant.tenantId],
      ),
    ).toBe(answered);
    expect(
      await scalar(
        `SELECT count(*)::int AS n FROM (SELECT check_id, database_id FROM checks.check_databases WHERE tenant_id = $1 GROUP BY 1, 2 HAVING count(*) > 1) d`,
        [tenant.tenantId],
      ),
    ).toBe(0);
  });
});
