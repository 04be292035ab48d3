import { randomBytes } from 'node:crypto';

import { JobQueueService, ManualClock } from '@kyc/platform';
import { closeDb, db, RunningService, startInProcess, startService } from '@kyc/testing';
import { DataSource } from 'typeorm';

import { checksService } from '../../src/app.module';
import { ChecksStartWithoutJob1764400000000 } from '../../src/database/migrations/1764400000000-checks-start-without-job';
import { createCheck as create, getCheck as get, statusOf, tenantWithClient } from './check-helpers';

/**
 * The engine's fast path (CHECKS_INLINE_COLLECT_MAX_MS): with sandbox latency 0 the start job asks
 * the quick databases itself and starts the check with their answers in one transaction; slower
 * ones (here RUNT, 5 s) keep a collector job of their own. ManualClock: time moves only when told.
 */
describe('check engine fast path (databases asked inline by the start job)', () => {
  const clock = new ManualClock('2031-05-10T12:00:00Z');
  let checks: RunningService & { app: Awaited<ReturnType<typeof startInProcess>>['app'] };
  let account: RunningService;
  let jobs: JobQueueService;

  beforeAll(async () => {
    [account, checks] = await Promise.all([
      startService('account', {
        KAFKA_CONSUMER_GROUP: `account-inline-${randomBytes(4).toString('hex')}`,
      }),
      startInProcess(
        'checks',
        checksService,
        {
          JOBS_POLL_MS: '60000',
          CHECKS_SANDBOX_LATENCY_SCALE: '0',
          CHECKS_SANDBOX_DATABASES: JSON.stringify({ 'sandbox-co-runt': { latency_ms: 5_000 } }),
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

  const tenant = () => tenantWithClient(account.url, checks.url);

  const count = async (sql: string, params: unknown[]) => (await db().query(sql, params)).rows[0].n as number;
  const finishedEvents = (id: string) =>
    count(`SELECT count(*)::int AS n FROM checks.outbox WHERE message_key = $1 AND type = 'checks.check.finished'`, [
      id,
    ]);
  const jobsOf = (id: string, queue: string) =>
    count(`SELECT count(*)::int AS n FROM checks.jobs WHERE queue = $2 AND payload->>'check_id' = $1`, [id, queue]);
  const runs = (id: string, outcome: string, databaseId?: string) =>
    count(
      `SELECT count(*)::int AS n FROM checks.collector_runs WHERE check_id = $1 AND outcome = $2 AND ($3::text IS NULL OR database_id = $3)`,
      [id, outcome, databaseId ?? null],
    );

  it('finishes a check whose databases all answer at once in its start job: no collector or timer job, one run per database, one finished event', async () => {
    const { api } = await tenant();
    // Peru, by ID only: every database it consults answers at once here; the name searches are skipped.
    const id = await create(api, { country: 'PE', type: 'person', national_id: '40000002' });
    await jobs.drain();
    const check = await get(api, id);
    expect(check.status).toBe('completed');
    expect(check.statuses.filter((s: any) => !['completed', 'skipped'].includes(s.status))).toEqual([]);
    expect(check.scores.find((s: any) => s.data_set === 'criminal_record')).toMatchObject({
      result: 'found',
      severity: 'high',
    });
    const answered = new Set(check.statuses.filter((s: any) => s.status === 'completed').map((s: any) => s.database_id))
      .size;
    expect(answered).toBeGreaterThan(1);
    expect(await runs(id, 'success')).toBe(answered);
    expect(await finishedEvents(id)).toBe(1);
    expect(await jobsOf(id, 'checks.collect')).toBe(0);
    expect(await jobsOf(id, 'checks.timer')).toBe(0);
    const dbRows = (
      await db().query(
        `SELECT database_id, status, attempts, answered_at FROM checks.check_databases WHERE check_id = $1`,
        [id],
      )
    ).rows;
    expect(dbRows.filter((r) => r.status === 'completed').every((r) => r.attempts === 1 && r.answered_at)).toBe(true);

    // The start job again (a redelivery, a second worker): the check has started, nothing changes.
    await db().query(
      `INSERT INTO checks.jobs (queue, tenant_id, payload, max_attempts, run_at) SELECT 'checks.start', tenant_id, jsonb_build_object('check_id', id), 10, now() - interval '1 day' FROM checks.checks WHERE id = $1`,
      [id],
    );
    clock.advance(1);
    await jobs.drain();
    expect(await finishedEvents(id)).toBe(1);
    expect(await runs(id, 'success')).toBe(answered);
    expect(await count(`SELECT count(*)::int AS n FROM checks.check_databases WHERE check_id = $1`, [id])).toBe(
      dbRows.length,
    );
  });

  it('leaves a slower database to its own job: the check is in progress with the quick answers recorded, and completes when it answers', async () => {
    const { api } = await tenant();
    const id = await create(api, {
      country: 'CO',
      type: 'person',
      national_id: '1000000002',
      first_name: 'Carlos Andrés',
      last_name: 'Rojas Pérez',
    });
    await jobs.drain();
    let check = await get(api, id);
    expect(check.status).toBe('in_progress');
    expect(statusOf(check, 'sandbox-co-runt').status).toBe('not_started');
    expect(statusOf(check, 'sandbox-co-police').status).toBe('completed');
    expect(statusOf(check, 'sandbox-int-sanctions').status).toBe('completed');
    // Credentials needed and none stored: an error at once, without a run (it says nothing of the database's health).
    expect(statusOf(check, 'sandbox-co-bureau')).toMatchObject({
      status: 'error',
      message: expect.stringContaining('/v1/config/credentials/sandbox-co-bureau'),
    });
    expect(await jobsOf(id, 'checks.collect')).toBe(1);
    expect(await finishedEvents(id)).toBe(0);

    clock.advance(5_000);
    await jobs.drain();
    check = await get(api, id);
    expect(check.status).toBe('completed');
    expect(statusOf(check, 'sandbox-co-runt').status).toBe('completed');
    // The same result as when every database has its own job (check-engine.integration-spec.ts).
    expect([check.score, check.id_score, check.homonym_score]).toEqual([0.75, 0.7833, 0.8636]);
    expect(await finishedEvents(id)).toBe(1);
    expect(await runs(id, 'success', 'sandbox-co-police')).toBe(1);
    expect(await runs(id, 'success', 'sandbox-co-runt')).toBe(1);
    expect(await runs(id, 'error', 'sandbox-co-bureau')).toBe(0);
  });

  it('retries off: a database failing inline is an error at once, with its run', async () => {
    const { api } = await tenant();
    const id = await create(api, { country: 'CO', type: 'person', national_id: '1000000099' });
    await jobs.drain();
    const check = await get(api, id);
    expect(statusOf(check, 'sandbox-co-police')).toMatchObject({
      status: 'error',
      message: expect.stringContaining('temporarily unavailable'),
    });
    expect(await runs(id, 'error', 'sandbox-co-police')).toBe(1);
    // Only RUNT (slow here) has a job.
    expect(await jobsOf(id, 'checks.collect')).toBe(1);
  });

  it('retries on: a database failing inline is retried by its own job with the collector backoff, then delayed', async () => {
    const { api } = await tenant();
    expect((await api.post('/v1/settings', { retries: 'true' })).status).toBe(200);
    const id = await create(api, { country: 'CO', type: 'person', national_id: '1000000099' });
    await jobs.drain();
    let check = await get(api, id);
    expect(check.status).toBe('in_progress');
    expect(statusOf(check, 'sandbox-co-police').status).toBe('not_started');
    expect(await runs(id, 'error', 'sandbox-co-police')).toBe(1);
    clock.advance(14_000);
    await jobs.drain();
    expect(await runs(id, 'error', 'sandbox-co-police')).toBe(1);
    clock.advance(1_000); // 15 s: the first retry
    await jobs.drain();
    expect(await runs(id, 'error', 'sandbox-co-police')).toBe(2);
    clock.advance(60_000); // past the police's expected latency (60 s)
    await jobs.drain();
    check = await get(api, id);
    expect(statusOf(check, 'sandbox-co-police').status).toBe('delayed');
    expect(check.status).toBe('delayed');
    expect(await finishedEvents(id)).toBe(0);
  });

  describe('a new check is its own start work item (no start job)', () => {
    const startState = async (id: string) =>
      (
        await db().query(
          `SELECT c.status, c.self_start, s.attempts, s.claimed_until
             FROM checks.checks c LEFT JOIN checks.check_start_claims s ON s.check_id = c.id WHERE c.id = $1`,
          [id],
        )
      ).rows[0] as { status: string; self_start: boolean | null; attempts: number | null; claimed_until: Date | null };
    const peru = (nationalId: string) => ({ country: 'PE', type: 'person', national_id: nationalId });

    it('writes no start job: the engine claims the waiting check and finishes it, its claim forgotten', async () => {
      const { api } = await tenant();
      const id = await create(api, peru('40000101'));
      expect(await jobsOf(id, 'checks.start')).toBe(0);
      // The engine may already be starting it (a commit wakes the queue): only the marker is certain here.
      expect(await startState(id)).toMatchObject({ self_start: true });
      await jobs.drain();
      expect((await get(api, id)).status).toBe('completed');
      expect(await startState(id)).toEqual({
        status: 'completed',
        self_start: true,
        attempts: null,
        claimed_until: null,
      });
      expect(await finishedEvents(id)).toBe(1);
    });

    /**
     * A copy of check `from`, waiting to start, written in one statement with what it needs (so
     * the engine, woken by every commit, never sees it without): a claim of a worker that died,
     * or, as a replica of the previous version writes it, no self_start and a start job.
     */
    const waitingCopy = async (from: string, as: 'claimed until' | 'previous version', at: Date) => {
      const id = `CHK${randomBytes(16).toString('hex')}`;
      const copy = `INSERT INTO checks.checks (id, tenant_id, country, type, status, inputs, input_hash, custom_input, report_id, user_authorized, created_by,
                                               created_at, updated_at, region, previous_check, weights, settings, rule_depth, requested_by_execution, self_start)
                    SELECT $1, tenant_id, country, type, 'not_started', inputs, input_hash || 'copy', custom_input, report_id, user_authorized, created_by,
                           created_at, created_at, region, previous_check, weights, settings, rule_depth, requested_by_execution, $4
                      FROM checks.checks WHERE id = $2 RETURNING id, tenant_id`;
      await db().query(
        as === 'claimed until'
          ? `WITH c AS (${copy}) INSERT INTO checks.check_start_claims (check_id, attempts, claimed_until) SELECT id, 1, $3 FROM c`
          : `WITH c AS (${copy}) INSERT INTO checks.jobs (queue, tenant_id, payload, max_attempts, run_at)
               SELECT 'checks.start', tenant_id, jsonb_build_object('check_id', id), 10, $3 FROM c`,
        [id, from, at, as === 'claimed until' ? true : null],
      );
      return id;
    };

    it('a start whose worker died is claimed again once its lease lapses, not before', async () => {
      const { api } = await tenant();
      const original = await create(api, peru('40000102'));
      await jobs.drain();
      const id = await waitingCopy(original, 'claimed until', new Date(clock.now().getTime() + 60_000));
      await jobs.drain();
      expect(await startState(id)).toMatchObject({ status: 'not_started', attempts: 1 });
      clock.advance(60_001);
      await jobs.drain();
      expect(await startState(id)).toMatchObject({ status: 'completed', attempts: null });
      expect(await finishedEvents(id)).toBe(1);
    });

    it('a check written by the previous version (self_start NULL, its start job) is started by its job only', async () => {
      const { api } = await tenant();
      const original = await create(api, peru('40000103'));
      await jobs.drain();
      // Its start job is due in an hour: until then nothing starts it.
      const id = await waitingCopy(original, 'previous version', new Date(clock.now().getTime() + 3_600_000));
      await jobs.drain();
      expect(await startState(id)).toEqual({
        status: 'not_started',
        self_start: null,
        attempts: null,
        claimed_until: null,
      });
      clock.advance(3_600_000);
      await jobs.drain();
      expect(await startState(id)).toMatchObject({ status: 'completed', attempts: null });
      expect(
        await count(
          `SELECT count(*)::int AS n FROM checks.jobs WHERE queue = 'checks.start' AND payload->>'check_id' = $1 AND status = 'completed' AND attempts = 1`,
          [id],
        ),
      ).toBe(1);
      expect(await finishedEvents(id)).toBe(1);
    });

    it('reverting the migration queues a start job for each check of this version still waiting (rolled back here)', async () => {
      const { api } = await tenant();
      const original = await create(api, peru('40000104'));
      await jobs.drain();
      const id = await waitingCopy(original, 'claimed until', new Date(clock.now().getTime() + 60_000));
      const runner = checks.app.get(DataSource).createQueryRunner();
      await runner.startTransaction();
      try {
        await new ChecksStartWithoutJob1764400000000().down(runner);
        const [job] = await runner.query(
          `SELECT tenant_id, max_attempts FROM checks.jobs WHERE queue = 'checks.start' AND payload->>'check_id' = $1`,
          [id],
        );
        expect(job).toEqual({ tenant_id: expect.any(String), max_attempts: 10 });
        const [{ n }] = await runner.query(
          `SELECT count(*)::int AS n FROM checks.jobs WHERE queue = 'checks.start' AND payload->>'check_id' = $1`,
          [original],
        );
        expect(n).toBe(0); // a started check gets none
        await new ChecksStartWithoutJob1764400000000().up(runner);
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
    });
  });
});
