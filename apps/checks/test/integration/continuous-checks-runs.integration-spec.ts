import { db } from '@kyc/testing';

import {
  a,
  advance,
  clock,
  dateIn,
  DAY,
  finishedCheck,
  finishedEvents,
  history,
  HOUR,
  jobs,
  pendingJobs,
  SECOND,
  useContinuousChecks,
} from './continuous-checks-fixture';

describe('continuous checks (ManualClock scheduler)', () => {
  useContinuousChecks();

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
});
