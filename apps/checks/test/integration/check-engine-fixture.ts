import { randomBytes } from 'node:crypto';

import { JobQueueService, ManualClock } from '@kyc/platform';
import { closeDb, db, RunningService, startInProcess, startService } from '@kyc/testing';

import { checksService } from '../../src/app.module';
import { tenantWithClient } from './check-helpers';

/**
 * The check engine end to end on real PostgreSQL, with a ManualClock: the sandbox databases answer
 * after their documented latencies on that clock, so tests move time instead of sleeping.
 */
export const clock = new ManualClock('2031-03-10T12:00:00Z');

export const SECOND = 1_000;

export const MINUTE = 60 * SECOND;

export const HOUR = 60 * MINUTE;

export let checks: RunningService & { app: Awaited<ReturnType<typeof startInProcess>>['app'] };

export let account: RunningService;

export let jobs: JobQueueService;

export const advance = async (ms: number) => {
  clock.advance(ms);
  await jobs.drain();
};

export const tenant = () => tenantWithClient(account.url, checks.url);

export const scoreOf = (check: any, dataSet: string) => check.scores.find((s: any) => s.data_set === dataSet);

export const finishedEvents = async (id: string) =>
  (
    await db().query(`SELECT envelope FROM checks.outbox WHERE message_key = $1 AND type = 'checks.check.finished'`, [
      id,
    ])
  ).rows.map((r) => r.envelope);

export const runs = async (id: string, databaseId: string, outcome: string) =>
  (
    await db().query(
      `SELECT count(*)::int AS n FROM checks.collector_runs WHERE check_id = $1 AND database_id = $2 AND outcome = $3`,
      [id, databaseId, outcome],
    )
  ).rows[0].n as number;

/** Registers the suite's setup and teardown (the bindings above are set in beforeAll). */
export function useCheckEngine(): void {
  beforeAll(async () => {
    [account, checks] = await Promise.all([
      startService('account', {
        KAFKA_CONSUMER_GROUP: `account-engine-${randomBytes(4).toString('hex')}`,
      }),
      startInProcess(
        'checks',
        checksService,
        // Costa Rica's court answers after an hour here (max_duration test); everything else at its nominal latency.
        {
          JOBS_POLL_MS: '60000',
          CHECKS_SANDBOX_DATABASES: JSON.stringify({ 'sandbox-cr-judicial': { latency_ms: HOUR } }),
        },
        { clock },
      ),
    ]);
    jobs = checks.app.get(JobQueueService);
  });

  afterAll(async () => {
    await Promise.all([checks?.close(), account?.close()]);
    await closeDb();
  });
}
