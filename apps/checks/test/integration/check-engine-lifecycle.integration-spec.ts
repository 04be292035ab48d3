import { db } from '@kyc/testing';

import {
  advance,
  finishedEvents,
  HOUR,
  jobs,
  runs,
  scoreOf,
  SECOND,
  tenant,
  useCheckEngine,
} from './check-engine-fixture';
import { createCheck as create, getCheck as get, statusOf } from './check-helpers';

describe('check engine (sandbox collectors, ManualClock)', () => {
  useCheckEngine();

  it('runs a person check not_started -> in_progress -> completed and scores what the databases found', async () => {
    const { api } = await tenant();
    const created = await api.post('/v1/checks', {
      country: 'CO',
      type: 'person',
      user_authorized: 'true',
      national_id: '1000000002',
      first_name: 'Carlos Andrés',
      last_name: 'Rojas Pérez',
    });
    expect(created.status).toBe(201);
    expect(created.body.check).toMatchObject({
      status: 'not_started',
      score: 0,
      id_score: 0,
      homonym_score: 0,
      statuses: [],
      scores: [],
      summary: { names_found: [] },
    });
    const id = created.body.check.check_id;

    await jobs.drain();
    let check = await get(api, id);
    expect(check.status).toBe('in_progress');
    expect(statusOf(check, 'sandbox-co-police')).toMatchObject({
      status: 'not_started',
      data_set: 'criminal_record',
      database_name: expect.any(String),
    });
    // A database that needs credentials fails at once when the tenant stored none.
    expect(statusOf(check, 'sandbox-co-bureau')).toMatchObject({
      status: 'error',
      message: expect.stringContaining('/v1/config/credentials/sandbox-co-bureau'),
    });
    expect(await finishedEvents(id)).toHaveLength(0);

    await advance(1_500);
    check = await get(api, id);
    expect(check.status).toBe('completed');
    expect(check.statuses.filter((s: any) => s.status !== 'completed').map((s: any) => s.database_id)).toEqual([
      'sandbox-co-bureau',
    ]);
    expect(scoreOf(check, 'criminal_record')).toMatchObject({
      result: 'found',
      severity: 'high',
      score: 0.25,
      by_id: { result: 'found', severity: 'high' },
      by_name: { result: 'not_found' },
    });
    expect(scoreOf(check, 'legal_background')).toMatchObject({
      result: 'found',
      severity: 'medium',
      by_name: { result: 'found', severity: 'medium' },
      by_id: { result: 'not_found' },
    });
    expect(scoreOf(check, 'traffic_fines')).toMatchObject({ result: 'found', severity: 'low', score: 0.75 });
    expect(scoreOf(check, 'taxes_and_finances')).toMatchObject({ result: 'error', severity: 'unknown' });
    expect(scoreOf(check, 'personal_identity')).toMatchObject({ result: 'found', severity: 'none', score: 1 });
    // Default CO person weights over the datasets that answered (taxes_and_finances failed): see docs/services/checks.md, "Scoring".
    expect([check.score, check.id_score, check.homonym_score]).toEqual([0.75, 0.7833, 0.8636]);
    expect(check.summary).toMatchObject({
      identity_status: 'found',
      gender: 'male',
      date_of_birth: '1985-09-30T00:00:00Z',
      names_found: [expect.objectContaining({ first_name: 'Carlos Andrés', last_name: 'Rojas Pérez' })],
    });

    const events = await finishedEvents(id);
    expect(events).toHaveLength(1);
    // The id of the request that created the check, through the jobs that finished it (docs/operations.md).
    expect(events[0].correlation_id).toBe(created.headers.get('x-request-id'));
    expect(events[0].payload.check).toMatchObject({
      check_id: id,
      status: 'completed',
      score: 0.75,
      scores: expect.any(Array),
      statuses: expect.any(Array),
      summary: expect.any(Object),
    });
    expect(await runs(id, 'sandbox-co-police', 'success')).toBe(1);
    const created_events = (
      await db().query(
        `SELECT count(*)::int AS n FROM checks.outbox WHERE message_key = $1 AND type = 'checks.check.created'`,
        [id],
      )
    ).rows[0].n;
    expect(created_events).toBe(1);
  });

  it('lists the databases the inputs do not allow as skipped, naming the inputs they lack', async () => {
    const { api } = await tenant();
    const id = await create(api, { country: 'CO', type: 'person', national_id: '1000000001' });
    await jobs.drain();
    const check = await get(api, id);
    expect(statusOf(check, 'sandbox-int-sanctions')).toMatchObject({
      status: 'skipped',
      invalid_inputs: ['first_name', 'last_name'],
    });
    await advance(1_500);
    expect(scoreOf(await get(api, id), 'international_background')).toMatchObject({
      result: 'ignored',
      by_name: { result: 'ignored' },
    });
  });

  it('names_matching_type: soft counts a homonym record filed under another token order, exact leaves it out', async () => {
    const { api } = await tenant();
    const homonym = {
      country: 'CO',
      type: 'person',
      national_id: '1000000003',
      first_name: 'Juan Carlos',
      last_name: 'Pérez Gómez',
    };
    const soft = await create(api, homonym);
    await jobs.drain();
    await advance(1_500);
    let check = await get(api, soft);
    expect(check.status).toBe('completed');
    expect(scoreOf(check, 'criminal_record')).toMatchObject({
      by_id: { result: 'not_found' },
      by_name: { result: 'found', severity: 'very_high', score: 0 },
    });
    expect(scoreOf(check, 'international_background').by_name).toMatchObject({ result: 'found', severity: 'high' });
    expect(check.id_score).toBe(1);
    expect(check.homonym_score).toBeLessThan(1);
    expect(check.homonym_probability).toBe(1);

    expect((await api.post('/v1/settings', { names_matching_type: 'exact' })).status).toBe(200);
    const exact = await create(api, homonym);
    await jobs.drain();
    await advance(1_500);
    check = await get(api, exact);
    expect(scoreOf(check, 'criminal_record').by_name).toMatchObject({ result: 'not_found', severity: 'none' });
    // The international record is filed under the identical name: exact still counts it.
    expect(scoreOf(check, 'international_background').by_name).toMatchObject({ result: 'found', severity: 'high' });
    // The settings apply to later checks only.
    expect(scoreOf(await get(api, soft), 'criminal_record').by_name.result).toBe('found');
  });

  it('retries off: a failing database is an error at once and the check completes with the others', async () => {
    const { api } = await tenant();
    const id = await create(api, { country: 'CO', type: 'person', national_id: '1000000099' });
    await jobs.drain();
    await advance(1_500);
    const check = await get(api, id);
    expect(check.status).toBe('completed');
    expect(statusOf(check, 'sandbox-co-police')).toMatchObject({
      status: 'error',
      message: expect.stringContaining('temporarily unavailable'),
    });
    expect(scoreOf(check, 'criminal_record')).toMatchObject({ result: 'error', severity: 'unknown' });
    expect(await runs(id, 'sandbox-co-police', 'error')).toBe(1);
  });

  it('retries on: a failing database is retried, delayed past its expected latency, and expired at max_duration (48 h)', async () => {
    const { api } = await tenant();
    expect((await api.post('/v1/settings', { retries: 'true' })).body).toMatchObject({
      retries: true,
      max_duration: null,
      max_duration_by_country: { CO: '48h' },
    });
    const id = await create(api, { country: 'CO', type: 'person', national_id: '1000000099' });
    await jobs.drain();
    await advance(1_500);
    let check = await get(api, id);
    expect(check.status).toBe('in_progress');
    expect(statusOf(check, 'sandbox-co-police').status).toBe('not_started');
    await advance(15 * SECOND);
    await advance(30 * SECOND);
    expect(await runs(id, 'sandbox-co-police', 'error')).toBeGreaterThanOrEqual(3);
    await advance(15 * SECOND); // past the database's expected latency (60 s)
    check = await get(api, id);
    expect(statusOf(check, 'sandbox-co-police').status).toBe('delayed');
    expect(check.status).toBe('delayed');
    expect(scoreOf(check, 'criminal_record').by_id.result).toBe('delayed');

    await advance(47 * HOUR);
    expect((await get(api, id)).status).toBe('delayed');
    await advance(HOUR);
    check = await get(api, id);
    expect(check.status).toBe('completed');
    expect(statusOf(check, 'sandbox-co-police')).toMatchObject({
      status: 'expired',
      message: expect.stringContaining('max_duration'),
    });
    expect(await runs(id, 'sandbox-co-police', 'timeout')).toBe(1);
    expect(await finishedEvents(id)).toHaveLength(1);
    await advance(HOUR);
    expect(await finishedEvents(id)).toHaveLength(1);
  });
});
