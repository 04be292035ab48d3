import { randomBytes } from 'node:crypto';

import { JobQueueService, ManualClock } from '@kyc/platform';
import { ApiClient, closeDb, db, RunningService, startInProcess, startService, TestTenant } from '@kyc/testing';

import { checksService } from '../../src/app.module';
import { tenantWithClient } from './check-helpers';

/**
 * Continuous checks at the HTTP boundary on real PostgreSQL, with a ManualClock: the scheduler's
 * due runs are jobs on the platform queue, so tests move the clock and drain instead of sleeping.
 */
export const clock = new ManualClock('2031-03-10T12:00:00Z');

export const SECOND = 1_000;

export const HOUR = 3_600 * SECOND;

export const DAY = 24 * HOUR;

export let checks: RunningService & { app: Awaited<ReturnType<typeof startInProcess>>['app'] };

export let account: RunningService;

export let jobs: JobQueueService;

export let a: { t: TestTenant; api: ApiClient };

export let b: { t: TestTenant; api: ApiClient };

export const tenant = () => tenantWithClient(account.url, checks.url);

export const advance = async (ms: number) => {
  clock.advance(ms);
  await jobs.drain();
};

/** A finished check of co-convicted (a high-severity criminal record: score below 1). */
export async function finishedCheck(api: ApiClient): Promise<string> {
  const res = await api.post('/v1/checks', {
    country: 'CO',
    type: 'person',
    user_authorized: 'true',
    force_creation: 'true',
    national_id: '1000000002',
    first_name: 'Carlos Andrés',
    last_name: 'Rojas Pérez',
  });
  expect(res.status).toBe(201);
  await jobs.drain();
  await advance(2 * SECOND);
  expect((await api.get(`/v1/checks/${res.body.check.check_id}`)).body.check.status).toBe('completed');
  return res.body.check.check_id;
}

export const dateIn = (days: number) => new Date(clock.now().getTime() + days * DAY).toISOString().slice(0, 10);

export const count = async (tenantId: string) =>
  (await db().query(`SELECT count(*)::int AS n FROM checks.continuous_checks WHERE tenant_id = $1`, [tenantId])).rows[0]
    .n as number;

export const finishedEvents = async (checkId: string) =>
  (
    await db().query(`SELECT envelope FROM checks.outbox WHERE message_key = $1 AND type = 'checks.check.finished'`, [
      checkId,
    ])
  ).rows.map((r) => r.envelope);

export const history = async (api: ApiClient, id: string) => {
  const res = await api.get(`/v1/continuous-checks/${id}/history`);
  expect(res.status).toBe(200);
  return res.body.history as any[];
};

export const pendingJobs = async (id: string) =>
  (
    await db().query(
      `SELECT run_at FROM checks.jobs WHERE queue = 'checks.continuous.run' AND payload->>'continuous_check_id' = $1 AND status = 'pending'`,
      [id],
    )
  ).rows;

/** Registers the suite's setup and teardown (the bindings above are set in beforeAll). */
export function useContinuousChecks(): void {
  beforeAll(async () => {
    [account, checks] = await Promise.all([
      startService('account', {
        KAFKA_CONSUMER_GROUP: `account-continuous-${randomBytes(4).toString('hex')}`,
      }),
      startInProcess('checks', checksService, { JOBS_POLL_MS: '60000' }, { clock }),
    ]);
    jobs = checks.app.get(JobQueueService);
    [a, b] = await Promise.all([tenant(), tenant()]);
  });

  afterAll(async () => {
    await Promise.all([checks?.close(), account?.close()]);
    await closeDb();
  });
}
