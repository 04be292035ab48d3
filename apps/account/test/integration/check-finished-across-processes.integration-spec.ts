import { randomUUID } from 'node:crypto';

import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  freePort,
  ServiceProcess,
  startProcess,
  TestTenant,
} from '@kyc/testing';

/**
 * The end-to-end path through real Kafka, with checks and account as separate OS processes:
 * a check created in checks is completed by its worker, `checks.check.finished` leaves through
 * the outbox, and account records it exactly once, also when account was down meanwhile.
 */
describe('checks.check.finished from the checks process to the account process', () => {
  const group = `account-e2e-${randomUUID().slice(0, 8)}`;
  let checks: ServiceProcess;
  let account: ServiceProcess;
  let accountPort: number;
  let tenant: TestTenant;
  let api: ApiClient;

  const recorded = async (checkId: string) =>
    (await db().query(`SELECT count(*)::int AS n FROM account.finished_checks WHERE check_id = $1`, [checkId])).rows[0]
      .n as number;
  const published = async (checkId: string) =>
    (
      await db().query(
        `SELECT count(*)::int AS n FROM checks.outbox WHERE message_key = $1 AND type = 'checks.check.finished' AND published_at IS NOT NULL`,
        [checkId],
      )
    ).rows[0].n as number;

  beforeAll(async () => {
    accountPort = await freePort();
    [checks, account] = await Promise.all([
      startProcess('checks', await freePort()),
      startProcess('account', accountPort, { KAFKA_CONSUMER_GROUP: group }),
    ]);
    tenant = await createTenant(account.url, [checks.url]);
    api = new ApiClient(checks.url, tenant.apiKey);
  });

  afterAll(async () => {
    await Promise.all([checks?.kill(), account?.kill()]);
    await closeDb();
  });

  const createCheck = async () => {
    const res = await api.post('/v1/checks', {
      country: 'CO',
      type: 'person',
      user_authorized: 'true',
      national_id: String(Date.now()) + Math.floor(Math.random() * 1000),
    });
    expect(res.status).toBe(201);
    return res.body.check.check_id as string;
  };

  it('delivers the finished event to account exactly once', async () => {
    const checkId = await createCheck();
    await eventually(async () => expect(await recorded(checkId)).toBe(1), { timeoutMs: 15_000 });
    const [row] = (
      await db().query(`SELECT tenant_id, status, payload FROM account.finished_checks WHERE check_id = $1`, [checkId])
    ).rows;
    expect(row).toMatchObject({ tenant_id: tenant.tenantId, status: 'completed' });
    expect(row.payload.check).toMatchObject({ check_id: checkId, country: 'CO', type: 'person' });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await recorded(checkId)).toBe(1);
  });

  it('delivers it once when account was down while the check finished and starts later', async () => {
    await account.kill('SIGTERM');
    const checkId = await createCheck();
    await eventually(async () => expect(await published(checkId)).toBe(1), { timeoutMs: 15_000 });
    expect(await recorded(checkId)).toBe(0);
    account = await startProcess('account', accountPort, { KAFKA_CONSUMER_GROUP: group });
    await eventually(async () => expect(await recorded(checkId)).toBe(1), { timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await recorded(checkId)).toBe(1);
  });

  it('does not lose an event when account is killed hard (SIGKILL) and restarted', async () => {
    await account.kill('SIGKILL');
    const ids = [await createCheck(), await createCheck(), await createCheck()];
    await eventually(async () => expect(await Promise.all(ids.map(published))).toEqual([1, 1, 1]), {
      timeoutMs: 15_000,
    });
    account = await startProcess('account', accountPort, { KAFKA_CONSUMER_GROUP: group });
    await eventually(async () => expect(await Promise.all(ids.map(recorded))).toEqual([1, 1, 1]), {
      timeoutMs: 20_000,
    });
  });
});
