import { randomBytes } from 'node:crypto';

import { AppException, Caller, JobQueueService, ManualClock } from '@kyc/platform';
import { ApiClient, closeDb, db, RunningService, startInProcess, startService, TestTenant } from '@kyc/testing';
import { DataSource } from 'typeorm';

import { checksService } from '../../src/app.module';
import { ChecksService } from '../../src/checks/checks.service';
import { ContinuousChecksService } from '../../src/continuous-checks/continuous-checks.service';
import { tenantWithClient } from './check-helpers';

/**
 * Continuous checks at the HTTP boundary on real PostgreSQL, with a ManualClock: the scheduler's
 * due runs are jobs on the platform queue, so tests move the clock and drain instead of sleeping.
 */
describe('continuous checks (ManualClock scheduler)', () => {
  const clock = new ManualClock('2031-03-10T12:00:00Z');
  const SECOND = 1_000;
  const HOUR = 3_600 * SECOND;
  const DAY = 24 * HOUR;
  let checks: RunningService & { app: Awaited<ReturnType<typeof startInProcess>>['app'] };
  let account: RunningService;
  let jobs: JobQueueService;
  let a: { t: TestTenant; api: ApiClient };
  let b: { t: TestTenant; api: ApiClient };

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

  const tenant = () => tenantWithClient(account.url, checks.url);

  const advance = async (ms: number) => {
    clock.advance(ms);
    await jobs.drain();
  };

  /** A finished check of co-convicted (a high-severity criminal record: score below 1). */
  async function finishedCheck(api: ApiClient): Promise<string> {
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

  const dateIn = (days: number) => new Date(clock.now().getTime() + days * DAY).toISOString().slice(0, 10);
  const count = async (tenantId: string) =>
    (await db().query(`SELECT count(*)::int AS n FROM checks.continuous_checks WHERE tenant_id = $1`, [tenantId]))
      .rows[0].n as number;
  const finishedEvents = async (checkId: string) =>
    (
      await db().query(`SELECT envelope FROM checks.outbox WHERE message_key = $1 AND type = 'checks.check.finished'`, [
        checkId,
      ])
    ).rows.map((r) => r.envelope);
  const history = async (api: ApiClient, id: string) => {
    const res = await api.get(`/v1/continuous-checks/${id}/history`);
    expect(res.status).toBe(200);
    return res.body.history as any[];
  };
  const pendingJobs = async (id: string) =>
    (
      await db().query(
        `SELECT run_at FROM checks.jobs WHERE queue = 'checks.continuous.run' AND payload->>'continuous_check_id' = $1 AND status = 'pending'`,
        [id],
      )
    ).rows;

  describe('validation: every bad field named, nothing stored', () => {
    let checkId: string;
    beforeAll(async () => {
      checkId = await finishedCheck(a.api);
    });

    it.each([
      ['check_id missing', { frequency: 'daily', end_date: '2031-12-31' }, 'check_id'],
      ['frequency missing', { end_date: '2031-12-31' }, 'frequency'],
      ['frequency hourly', { frequency: 'hourly', end_date: '2031-12-31' }, 'frequency'],
      ['frequency 0d', { frequency: '0d', end_date: '2031-12-31' }, 'frequency'],
      ['frequency 3x', { frequency: '3x', end_date: '2031-12-31' }, 'frequency'],
      ['end_date missing', { frequency: 'daily' }, 'end_date'],
      ['end_date not YYYY-MM-DD', { frequency: 'daily', end_date: '31/12/2031' }, 'end_date'],
      ['end_date not a calendar date', { frequency: 'daily', end_date: '2031-02-30' }, 'end_date'],
      ['end_date today with daily (no run fits)', { frequency: 'daily', end_date: '2031-03-10' }, 'end_date'],
      ['end_date before the first weekly run', { frequency: 'weekly', end_date: '2031-03-16' }, 'end_date'],
      ['end_date before the first 2m run', { frequency: '2m', end_date: '2031-05-09' }, 'end_date'],
      ['end_date in the past', { frequency: 'daily', end_date: '2030-01-01' }, 'end_date'],
      ['status unknown', { frequency: 'daily', end_date: '2031-12-31', status: 'paused' }, 'status'],
      [
        'api_key_version not 0 or 1',
        { frequency: 'daily', end_date: '2031-12-31', api_key_version: '2' },
        'api_key_version',
      ],
      [
        'api_key_version 0 with a version-1 key',
        { frequency: 'daily', end_date: '2031-12-31', api_key_version: '0' },
        'api_key_version',
      ],
    ])('POST with %s -> 400 naming the field', async (_, body, field) => {
      const res = await a.api.post('/v1/continuous-checks', {
        check_id: field === 'check_id' ? undefined : checkId,
        ...body,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 400,
        error_code: 'validation_failed',
        fields: expect.arrayContaining([expect.objectContaining({ field, message: expect.any(String) })]),
      });
      expect(await count(a.t.tenantId)).toBe(0);
    });

    it('lists every bad field at once', async () => {
      const res = await a.api.post('/v1/continuous-checks', { frequency: 'often', end_date: 'soon', status: 'x' });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field).sort()).toEqual(['check_id', 'end_date', 'frequency', 'status']);
      expect(await count(a.t.tenantId)).toBe(0);
    });

    it('accepts the first end_date that allows one run (the day of the first run)', async () => {
      const weekly = await a.api.post('/v1/continuous-checks', {
        check_id: checkId,
        frequency: 'weekly',
        end_date: '2031-03-17',
        status: 'disabled',
      });
      expect(weekly.status).toBe(201);
      await db().query(`DELETE FROM checks.continuous_checks WHERE id = $1`, [weekly.body.continuous_check_id]);
    });

    it("answers 404 naming check_id for an unknown check or another tenant's check", async () => {
      const otherCheck = await finishedCheck(b.api);
      for (const id of ['CHKdoesnotexist', otherCheck]) {
        const res = await a.api.post('/v1/continuous-checks', {
          check_id: id,
          frequency: 'daily',
          end_date: '2031-12-31',
        });
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({
          code: 404,
          error_code: 'check_not_found',
          fields: [expect.objectContaining({ field: 'check_id' })],
        });
      }
      expect(await count(a.t.tenantId)).toBe(0);
    });

    it('PUT refuses a missing or bad status or frequency, or another api_key_version, and changes nothing', async () => {
      const created = await a.api.post('/v1/continuous-checks', {
        check_id: checkId,
        frequency: 'daily',
        end_date: '2031-12-31',
      });
      expect(created.status).toBe(201);
      const id = created.body.continuous_check_id;
      const cases: [Record<string, string>, string][] = [
        [{ frequency: 'daily' }, 'status'],
        [{ frequency: 'daily', status: 'paused' }, 'status'],
        [{ status: 'disabled' }, 'frequency'],
        [{ status: 'disabled', frequency: 'fortnightly' }, 'frequency'],
        [{ status: 'disabled', frequency: 'daily', api_key_version: '0' }, 'api_key_version'],
        [{ status: 'disabled', frequency: 'daily', api_key_version: 'one' }, 'api_key_version'],
      ];
      for (const [body, field] of cases) {
        const res = await a.api.put(`/v1/continuous-checks/${id}`, body);
        expect([res.status, res.body.fields?.map((f: any) => f.field)]).toEqual([400, [field]]);
      }
      const after = await a.api.get(`/v1/continuous-checks/${id}`);
      expect(after.body).toMatchObject({
        status: 'enabled',
        frequency: 'daily',
        api_key_version: 1,
        update_date: created.body.update_date,
      });
      await db().query(`DELETE FROM checks.continuous_checks WHERE id = $1`, [id]);
      await db().query(
        `DELETE FROM checks.jobs WHERE queue = 'checks.continuous.run' AND payload->>'continuous_check_id' = $1`,
        [id],
      );
    });
  });

  it('re-runs the check at each due time until end_date, with history and a finished event per run (up, down, same)', async () => {
    const original = await finishedCheck(a.api);
    const t0 = clock.now();
    const created = await a.api.post('/v1/continuous-checks', {
      check_id: original,
      frequency: 'daily',
      end_date: dateIn(3),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      continuous_check_id: expect.stringMatching(/^CCK/),
      check_id: original,
      check: { check_id: original, status: 'completed' },
      frequency: 'daily',
      end_date: dateIn(3),
      status: 'enabled',
      api_key_version: 1,
      counter: 0,
      score_status: 'new',
      last_check_id: original,
      next_run_date: new Date(t0.getTime() + DAY).toISOString(),
    });
    const id = created.body.continuous_check_id;
    const originalScore = (await a.api.get(`/v1/checks/${original}`)).body.check.score as number;
    expect(originalScore).toBeLessThan(1);

    // Nothing before the due time.
    await advance(DAY - HOUR);
    expect(await history(a.api, id)).toHaveLength(0);

    // The sandbox answers the same for the same person, so an earlier score is set directly to
    // make the next run compare up (previous lower), then down (previous higher), then same.
    await db().query(`UPDATE checks.checks SET score = 0 WHERE id = $1`, [original]);
    await advance(HOUR);
    let runs = await history(a.api, id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      counter: 1,
      status: 'running',
      previous_check_id: original,
      check_id: expect.stringMatching(/^CHK/),
      due_date: new Date(t0.getTime() + DAY).toISOString(),
    });
    const run1 = runs[0].check_id;
    const run1Check = (await a.api.get(`/v1/checks/${run1}`)).body.check;
    expect(run1Check).toMatchObject({
      previous_check: original,
      national_id: '1000000002',
      first_name: 'Carlos Andrés',
      country: 'CO',
      type: 'person',
    });
    await advance(2 * SECOND);
    runs = await history(a.api, id);
    expect(runs[0]).toMatchObject({
      status: 'finished',
      score: originalScore,
      previous_score: 0,
      score_change: 'up',
      changes: expect.arrayContaining([{ name: 'score', old_score: 0, new_score: originalScore }]),
    });
    let [event] = await finishedEvents(run1);
    expect(event.payload).toMatchObject({
      continuous_check_id: id,
      score_change: 'up',
      hook_api_key_version: 1,
      check: { check_id: run1, previous_check: original },
      continuous_check: {
        continuous_check_id: id,
        run_id: runs[0].run_id,
        counter: 1,
        check_id: run1,
        previous_check_id: original,
        previous_score: 0,
        score: originalScore,
        score_change: 'up',
        frequency: 'daily',
      },
    });
    expect((await a.api.get(`/v1/continuous-checks/${id}`)).body).toMatchObject({
      counter: 1,
      score_status: 'up',
      last_check_id: run1,
      next_run_date: new Date(t0.getTime() + 2 * DAY).toISOString(),
    });

    await db().query(`UPDATE checks.checks SET score = 1 WHERE id = $1`, [run1]);
    await advance(DAY);
    await advance(2 * SECOND);
    runs = await history(a.api, id);
    expect(runs).toHaveLength(2);
    const run2 = runs[0].check_id;
    expect(runs[0]).toMatchObject({
      counter: 2,
      previous_check_id: run1,
      status: 'finished',
      score_change: 'down',
      previous_score: 1,
      score: originalScore,
    });
    [event] = await finishedEvents(run2);
    expect(event.payload).toMatchObject({ continuous_check_id: id, score_change: 'down', hook_api_key_version: 1 });

    await advance(DAY);
    await advance(2 * SECOND);
    runs = await history(a.api, id);
    expect(runs).toHaveLength(3);
    const run3 = runs[0].check_id;
    expect(runs[0]).toMatchObject({ counter: 3, previous_check_id: run2, score_change: 'same', changes: [] });
    [event] = await finishedEvents(run3);
    expect(event.payload).toMatchObject({ continuous_check_id: id, score_change: 'same' });

    // end_date reached: no further run is scheduled or made.
    const after = (await a.api.get(`/v1/continuous-checks/${id}`)).body;
    expect(after).toMatchObject({ counter: 3, score_status: 'same', next_run_date: null, last_check_id: run3 });
    expect(await pendingJobs(id)).toHaveLength(0);
    await advance(3 * DAY);
    expect((await history(a.api, id)).map((r) => r.counter)).toEqual([3, 2, 1]);
    // The original check's own finished event carries no continuous fields.
    expect((await finishedEvents(original))[0].payload.continuous_check_id).toBeUndefined();
  });

  it('stops when disabled and resumes from the next due time when enabled, without catching up', async () => {
    const original = await finishedCheck(a.api);
    const t0 = clock.now();
    const created = await a.api.post('/v1/continuous-checks', {
      check_id: original,
      frequency: '2d',
      end_date: dateIn(60),
    });
    const id = created.body.continuous_check_id;
    expect(await pendingJobs(id)).toHaveLength(1);

    const disabled = await a.api.put(`/v1/continuous-checks/${id}`, { status: 'disabled', frequency: '2d' });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ status: 'disabled', next_run_date: null });
    await advance(7 * DAY);
    expect(await history(a.api, id)).toHaveLength(0);

    clock.advance(6 * HOUR); // t0 + 7d 6h: due times are t0 + 2k days
    const enabled = await a.api.put(`/v1/continuous-checks/${id}`, { status: 'enabled', frequency: '2d' });
    expect(enabled.body).toMatchObject({
      status: 'enabled',
      next_run_date: new Date(t0.getTime() + 8 * DAY).toISOString(),
    });
    await jobs.drain();
    expect(await history(a.api, id)).toHaveLength(0); // no burst for the runs missed while disabled
    expect(await pendingJobs(id)).toHaveLength(1);

    // Enabling again without a change schedules nothing twice.
    await a.api.put(`/v1/continuous-checks/${id}`, { status: 'enabled', frequency: '2d' });
    expect(await pendingJobs(id)).toHaveLength(1);

    await advance(18 * HOUR); // t0 + 8d
    await advance(2 * SECOND);
    const runs = await history(a.api, id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      counter: 1,
      status: 'finished',
      due_date: new Date(t0.getTime() + 8 * DAY).toISOString(),
    });
    expect((await a.api.get(`/v1/continuous-checks/${id}`)).body.next_run_date).toBe(
      new Date(t0.getTime() + 10 * DAY).toISOString(),
    );

    // A changed frequency counts from now.
    const weekly = await a.api.put(`/v1/continuous-checks/${id}`, { status: 'enabled', frequency: 'weekly' });
    expect(weekly.body).toMatchObject({
      frequency: 'weekly',
      next_run_date: new Date(clock.now().getTime() + 7 * DAY).toISOString(),
    });
    await advance(3 * DAY); // the 2d job of t0 + 10d is stale now
    expect(await history(a.api, id)).toHaveLength(1);
    await a.api.put(`/v1/continuous-checks/${id}`, { status: 'disabled', frequency: 'weekly' });
  });

  it('a job run twice (restart, second replica) makes one run', async () => {
    const original = await finishedCheck(a.api);
    const created = await a.api.post('/v1/continuous-checks', {
      check_id: original,
      frequency: 'daily',
      end_date: dateIn(1),
    });
    const id = created.body.continuous_check_id;
    const [{ run_at }] = await pendingJobs(id);
    // A second copy of the due job, as a second scheduler would queue without the dedupe key.
    await db().query(
      `INSERT INTO checks.jobs (queue, tenant_id, payload, max_attempts, run_at) SELECT queue, tenant_id, payload, max_attempts, run_at FROM checks.jobs WHERE queue = 'checks.continuous.run' AND payload->>'continuous_check_id' = $1`,
      [id],
    );
    clock.set(new Date(run_at).toISOString());
    await Promise.all([jobs.drain(), jobs.drain()]);
    await advance(2 * SECOND);
    expect(await history(a.api, id)).toHaveLength(1);
  });

  it('shapes the finished event by hook API key version 0', async () => {
    const api0 = a.api.withKey(a.t.apiKeyV0);
    const original = await finishedCheck(a.api);
    const created = await api0.post('/v1/continuous-checks', {
      check_id: original,
      frequency: 'daily',
      end_date: dateIn(1),
      api_key_version: '0',
    });
    expect(created.status).toBe(201);
    expect(created.body.api_key_version).toBe(0);
    const id = created.body.continuous_check_id;
    // The version-1 key cannot switch the hook to its version through a version-0 key's request.
    expect(
      (await api0.put(`/v1/continuous-checks/${id}`, { status: 'enabled', frequency: 'daily', api_key_version: '1' }))
        .status,
    ).toBe(400);
    await advance(DAY);
    await advance(2 * SECOND);
    const [run] = await history(a.api, id);
    const [event] = await finishedEvents(run.check_id);
    expect(event.payload).toMatchObject({ continuous_check_id: id, score_change: 'same', hook_api_key_version: 0 });
    expect(event.payload.continuous_check).toBeUndefined();
  });

  it("creates from code in the caller's transaction (batches): committed with it, or not at all, same rules", async () => {
    const service = checks.app.get(ContinuousChecksService);
    const checksSvc = checks.app.get(ChecksService);
    const dataSource = checks.app.get(DataSource);
    const caller = new Caller(
      a.t.tenantId,
      a.t.adminUserId,
      undefined,
      'batch:test',
      'backend',
      1,
      undefined,
      new Set(['checks.country_all']),
      [],
    );
    const inputs = {
      country: 'CO',
      type: 'person',
      user_authorized: 'true',
      force_creation: 'true',
      national_id: '1000000001',
    };
    const before = await count(a.t.tenantId);

    const bad = await dataSource
      .transaction(async (m) => {
        const { check } = await checksSvc.create(caller, inputs, { manager: m });
        return service.createInTransaction(m, caller, check, { frequency: 'hourly', end_date: 'tomorrow' });
      })
      .catch((e) => e);
    expect(bad).toBeInstanceOf(AppException);
    expect(bad.fields.map((f: any) => f.field).sort()).toEqual(['end_date', 'frequency']);

    await expect(
      dataSource.transaction(async (m) => {
        const { check } = await checksSvc.create(caller, inputs, { manager: m });
        await service.createInTransaction(m, caller, check, { frequency: 'weekly', end_date: dateIn(30) });
        throw new Error('the batch row failed');
      }),
    ).rejects.toThrow('the batch row failed');
    expect(await count(a.t.tenantId)).toBe(before);

    const cc = await dataSource.transaction(async (m) => {
      const { check } = await checksSvc.create(caller, inputs, { manager: m });
      return service.createInTransaction(m, caller, check, { frequency: 'weekly', end_date: dateIn(30) });
    });
    const res = await a.api.get(`/v1/continuous-checks/${cc.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      frequency: 'weekly',
      status: 'enabled',
      api_key_version: 1,
      next_run_date: new Date(clock.now().getTime() + 7 * DAY).toISOString(),
    });
    expect(await pendingJobs(cc.id)).toHaveLength(1);
    await a.api.put(`/v1/continuous-checks/${cc.id}`, { status: 'disabled', frequency: 'weekly' });
  });

  it('lists with start_key pagination and keeps tenants apart (404 for another tenant on every endpoint)', async () => {
    const t = await tenant();
    const original = await finishedCheck(t.api);
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await t.api.post('/v1/continuous-checks', {
        check_id: original,
        frequency: 'monthly',
        end_date: dateIn(400),
        status: 'disabled',
      });
      expect(res.status).toBe(201);
      ids.push(res.body.continuous_check_id);
    }
    const first = await t.api.get('/v1/continuous-checks');
    expect(first.status).toBe(200);
    expect(first.body.continuous_checks).toHaveLength(20);
    expect(first.body.continuous_checks[0]).toMatchObject({
      check: { check_id: original },
      frequency: 'monthly',
      status: 'disabled',
    });
    expect(first.body.next).toContain('start_key=');
    const second = await t.api.get(first.body.next.replace(checks.url, '').replace(/^https?:\/\/[^/]+/, ''));
    expect(second.body.continuous_checks).toHaveLength(1);
    expect(second.body.next).toBeUndefined();
    expect(
      new Set(
        [...first.body.continuous_checks, ...second.body.continuous_checks].map((c: any) => c.continuous_check_id),
      ),
    ).toEqual(new Set(ids));

    const id = ids[0];
    expect((await b.api.get(`/v1/continuous-checks/${id}`)).status).toBe(404);
    expect((await b.api.get(`/v1/continuous-checks/${id}/history`)).status).toBe(404);
    const put = await b.api.put(`/v1/continuous-checks/${id}`, { status: 'enabled', frequency: 'daily' });
    expect(put.status).toBe(404);
    expect(put.body).toMatchObject({ code: 404, error_code: 'continuous_check_not_found' });
    expect((await t.api.get(`/v1/continuous-checks/${id}`)).body).toMatchObject({
      status: 'disabled',
      frequency: 'monthly',
    });
    const listB = await b.api.get('/v1/continuous-checks');
    expect(listB.body.continuous_checks.map((c: any) => c.continuous_check_id)).not.toContain(id);
    expect((await t.api.get('/v1/continuous-checks/CCKnope')).status).toBe(404);
  });
});
