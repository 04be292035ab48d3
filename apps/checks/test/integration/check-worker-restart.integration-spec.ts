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

/**
 * The checks service as its own OS process (from dist/), killed with SIGKILL while collector jobs
 * are in flight: restarted, it takes the orphaned jobs over (their locks expire) and every check
 * completes once — no duplicate checks, databases, answers or finished events.
 */
describe('a checks worker killed mid-check', () => {
  let account: RunningService;
  let checks: ServiceProcess;
  let port: number;
  // Databases answer after 2 to 5 s; a dead worker's jobs are taken over 1.5 s after their claim.
  const env = { CHECKS_WORKER_LOCK_MS: '1500', JOBS_POLL_MS: '100', CHECKS_SANDBOX_LATENCY_SCALE: '4' };

  beforeAll(async () => {
    port = await freePort();
    [account, checks] = await Promise.all([
      startService('account', {
        KAFKA_CONSUMER_GROUP: `account-restart-${randomBytes(4).toString('hex')}`,
      }),
      startProcess('checks', port, env),
    ]);
  });

  afterAll(async () => {
    await Promise.all([checks?.kill('SIGKILL'), account?.close()]);
    await closeDb();
  });

  const scalar = async (sql: string, params: unknown[]) => (await db().query(sql, params)).rows[0].n as number;

  it('resumes after a restart and completes each check exactly once', async () => {
    const tenant = await createTenant(account.url, [checks.url]);
    const api = new ApiClient(checks.url, tenant.apiKey);
    const people = ['1000000001', '1000000002', '1000000005', '1000000007', '1000000003', '555123987'];
    const ids: string[] = [];
    for (const national_id of people) {
      const res = await api.post('/v1/checks', {
        country: 'CO',
        type: 'person',
        user_authorized: 'true',
        national_id,
        first_name: 'Ana María',
        last_name: 'Gómez Ruiz',
      });
      expect(res.status).toBe(201);
      ids.push(res.body.check.check_id);
    }
    // Kill it as soon as databases have started answering, before any check could finish.
    await eventually(
      async () =>
        expect(
          await scalar(
            `SELECT count(*)::int AS n FROM checks.check_databases WHERE tenant_id = $1 AND status = 'completed'`,
            [tenant.tenantId],
          ),
        ).toBeGreaterThan(0),
      {
        timeoutMs: 20_000,
        intervalMs: 20,
      },
    );
    await checks.kill('SIGKILL');
    const finishedBefore = await scalar(
      `SELECT count(*)::int AS n FROM checks.checks WHERE tenant_id = $1 AND status IN ('completed', 'error')`,
      [tenant.tenantId],
    );
    expect(finishedBefore).toBeLessThan(ids.length);
    expect(
      await scalar(
        `SELECT count(*)::int AS n FROM checks.jobs WHERE tenant_id = $1 AND status IN ('pending', 'running')`,
        [tenant.tenantId],
      ),
    ).toBeGreaterThan(0);

    checks = await startProcess('checks', port, env);
    await eventually(
      async () =>
        expect(
          await scalar(`SELECT count(*)::int AS n FROM checks.checks WHERE tenant_id = $1 AND status = 'completed'`, [
            tenant.tenantId,
          ]),
        ).toBe(ids.length),
      { timeoutMs: 45_000, intervalMs: 200 },
    );

    expect(await scalar(`SELECT count(*)::int AS n FROM checks.checks WHERE tenant_id = $1`, [tenant.tenantId])).toBe(
      ids.length,
    );
    for (const id of ids) {
      expect([
        id,
        await scalar(
          `SELECT count(*)::int AS n FROM checks.outbox WHERE message_key = $1 AND type = 'checks.check.finished'`,
          [id],
        ),
      ]).toEqual([id, 1]);
      const rows = (
        await db().query(`SELECT database_id, status FROM checks.check_databases WHERE check_id = $1`, [id])
      ).rows;
      expect(new Set(rows.map((r) => r.database_id)).size).toBe(rows.length);
      expect(rows.filter((r) => !['completed', 'skipped', 'error'].includes(r.status))).toEqual([]);
      // One recorded answer per database, however many times a job ran.
      const answers = (
        await db().query(
          `SELECT database_id, count(*)::int AS n FROM checks.collector_runs WHERE check_id = $1 AND outcome = 'success' GROUP BY 1`,
          [id],
        )
      ).rows;
      expect(answers.filter((r) => r.n !== 1)).toEqual([]);
      expect(answers.length).toBe(rows.filter((r) => r.status === 'completed').length);
      const check = (await api.get(`/v1/checks/${id}`)).body.check;
      expect(check).toMatchObject({ status: 'completed', score: expect.any(Number) });
      expect(check.score).toBeGreaterThanOrEqual(0);
    }
  });
});
