import { randomBytes } from 'node:crypto';

import { JobQueueService, ManualClock } from '@kyc/platform';
import { closeDb, db, RunningService, startInProcess, startService } from '@kyc/testing';

import { checksService } from '../../src/app.module';
import { createCheck as create, getCheck as get, statusOf, tenantWithClient } from './check-helpers';

/**
 * The check engine end to end on real PostgreSQL, with a ManualClock: the sandbox databases answer
 * after their documented latencies on that clock, so tests move time instead of sleeping.
 */
describe('check engine (sandbox collectors, ManualClock)', () => {
  const clock = new ManualClock('2031-03-10T12:00:00Z');
  const SECOND = 1_000;
  const MINUTE = 60 * SECOND;
  const HOUR = 60 * MINUTE;
  let checks: RunningService & { app: Awaited<ReturnType<typeof startInProcess>>['app'] };
  let account: RunningService;
  let jobs: JobQueueService;

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

  const advance = async (ms: number) => {
    clock.advance(ms);
    await jobs.drain();
  };

  const tenant = () => tenantWithClient(account.url, checks.url);

  const scoreOf = (check: any, dataSet: string) => check.scores.find((s: any) => s.data_set === dataSet);
  const finishedEvents = async (id: string) =>
    (
      await db().query(`SELECT envelope FROM checks.outbox WHERE message_key = $1 AND type = 'checks.check.finished'`, [
        id,
      ])
    ).rows.map((r) => r.envelope);
  const runs = async (id: string, databaseId: string, outcome: string) =>
    (
      await db().query(
        `SELECT count(*)::int AS n FROM checks.collector_runs WHERE check_id = $1 AND database_id = $2 AND outcome = $3`,
        [id, databaseId, outcome],
      )
    ).rows[0].n as number;

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

  it('max_duration: a database slower than max_duration expires, after being delayed, and the check completes without it', async () => {
    const { api } = await tenant();
    expect((await api.post('/v1/settings', { max_duration: '15m' })).body).toMatchObject({
      max_duration: '15m',
      max_duration_by_country: { CR: '15m' },
    });
    const id = await create(api, { country: 'CR', type: 'person', national_id: '202220222' });
    await jobs.drain();
    await advance(2 * SECOND);
    expect((await get(api, id)).status).toBe('in_progress');
    await advance(2 * MINUTE); // the court's expected latency is 2 minutes; it answers after an hour here
    let check = await get(api, id);
    expect(check.status).toBe('delayed');
    expect(statusOf(check, 'sandbox-cr-judicial').status).toBe('delayed');
    await advance(13 * MINUTE);
    check = await get(api, id);
    expect(check.status).toBe('completed');
    expect(statusOf(check, 'sandbox-cr-judicial').status).toBe('expired');
    expect(scoreOf(check, 'traffic_fines')).toMatchObject({ result: 'found', severity: 'low' });
    expect(scoreOf(check, 'criminal_record')).toMatchObject({ result: 'error' });
  });

  it('Brazil: a state court answers in minutes (region from the CPF), the nation-wide search in more than a day (webhook)', async () => {
    const { api } = await tenant();
    // Region DF from the CPF (9th digit 1): the DF court answers after 2 minutes.
    const state = await create(api, {
      country: 'BR',
      type: 'person',
      national_id: '98765432100',
      date_of_birth: '1990-09-09',
    });
    expect((await get(api, state)).region).toBe('DF');
    await jobs.drain();
    await advance(1_500);
    expect((await get(api, state)).status).toBe('in_progress');
    await advance(2 * MINUTE);
    let check = await get(api, state);
    expect(check.status).toBe('completed');
    expect(scoreOf(check, 'criminal_record')).toMatchObject({ result: 'found', severity: 'high' });

    // This person's record sits in São Paulo: the search in the CPF's region (PA) does not see it.
    const regional = await create(api, {
      country: 'BR',
      type: 'person',
      national_id: '00011122286',
      date_of_birth: '1984-04-04',
    });
    const nationWide = await create(api, {
      country: 'BR',
      type: 'person',
      national_id: '00011122286',
      date_of_birth: '1984-04-04',
      region: 'ALL',
    });
    await jobs.drain();
    await advance(20 * MINUTE);
    expect(scoreOf(await get(api, regional), 'criminal_record')).toMatchObject({ result: 'not_found' });
    check = await get(api, nationWide);
    expect(check.status).toBe('in_progress');
    expect(statusOf(check, 'sandbox-br-tj-national').status).toBe('not_started');
    // Default max_duration for BR is 3 h: the nation-wide search expires.
    await advance(3 * HOUR);
    check = await get(api, nationWide);
    expect(check.status).toBe('completed');
    expect(statusOf(check, 'sandbox-br-tj-national').status).toBe('expired');

    // With max_duration 48h it answers (by webhook) after 26 hours.
    expect((await api.post('/v1/settings', { max_duration: '48h' })).status).toBe(200);
    const patient = await create(api, {
      country: 'BR',
      type: 'person',
      national_id: '00011122286',
      date_of_birth: '1984-04-04',
      region: 'ALL',
    });
    await jobs.drain();
    await advance(25 * HOUR);
    expect((await get(api, patient)).status).toBe('in_progress');
    await advance(HOUR);
    check = await get(api, patient);
    expect(check.status).toBe('completed');
    expect(statusOf(check, 'sandbox-br-tj-national').status).toBe('completed');
    expect(scoreOf(check, 'criminal_record')).toMatchObject({ result: 'found', severity: 'very_high' });
  });

  it('custom types: a check consults only the weighted datasets and scores with the type weights', async () => {
    const { api } = await tenant();
    expect(
      (
        await api.post('/v1/config', {
          country: 'CO',
          type: 'fines-and-crime',
          dataset_traffic_fines: '0.5',
          dataset_criminal_record: '0.5',
        })
      ).status,
    ).toBe(201);
    const id = await create(api, { country: 'CO', type: 'fines-and-crime', national_id: '1000000002' });
    await jobs.drain();
    await advance(1_500);
    const check = await get(api, id);
    expect(check.status).toBe('completed');
    expect([...new Set(check.statuses.map((s: any) => s.database_id))].sort()).toEqual([
      'sandbox-co-judicial',
      'sandbox-co-police',
      'sandbox-co-simit',
    ]);
    expect(statusOf(check, 'sandbox-co-judicial').status).toBe('skipped');
    expect(check.scores.map((s: any) => s.data_set).sort()).toEqual(['criminal_record', 'traffic_fines']);
    // 0.5 * 0.25 (criminal, high) + 0.5 * 0.75 (fines, low)
    expect(check.score).toBe(0.5);

    // Updating the type affects later checks.
    expect(
      (await api.put('/v1/config', { country: 'CO', type: 'fines-and-crime', dataset_traffic_fines: '1' })).status,
    ).toBe(200);
    const later = await create(api, { country: 'CO', type: 'fines-and-crime', national_id: '1000000002' });
    await jobs.drain();
    await advance(1_500);
    const laterCheck = await get(api, later);
    expect(laterCheck.scores.map((s: any) => s.data_set)).toEqual(['traffic_fines']);
    expect(laterCheck.score).toBe(0.75);
    expect((await get(api, id)).score).toBe(0.5);
  });

  it('ends in error when every database failed (scores -1), with its finished event', async () => {
    const { api } = await tenant();
    expect(
      (await api.post('/v1/config', { country: 'CO', type: 'police-only', dataset_criminal_record: '1' })).status,
    ).toBe(201);
    const id = await create(api, { country: 'CO', type: 'police-only', national_id: '1000000099' });
    await jobs.drain();
    await advance(1_500);
    const check = await get(api, id);
    expect(check).toMatchObject({ status: 'error', score: 0, id_score: 0, homonym_score: 0 });
    const events = await finishedEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0].payload.check.status).toBe('error');
    // An errored check is not "recent": the same inputs create a new check.
    const again = await api.post('/v1/checks', {
      country: 'CO',
      type: 'police-only',
      national_id: '1000000099',
      user_authorized: 'true',
    });
    expect(again.body.check.check_id).not.toBe(id);
  });

  it('uses stored credentials for databases that need them, and reports refused ones', async () => {
    const { api } = await tenant();
    expect(
      (await api.postJson('/v1/config/credentials/sandbox-co-bureau', { username: 'acme', password: 'invalid' }))
        .status,
    ).toBe(201);
    const refused = await create(api, { country: 'CO', type: 'person', national_id: '1000000007' });
    await jobs.drain();
    await advance(1_500);
    expect(statusOf(await get(api, refused), 'sandbox-co-bureau')).toMatchObject({
      status: 'error',
      message: expect.stringContaining('authentication failed'),
    });

    expect(
      (
        await api.postJson('/v1/config/credentials/sandbox-co-bureau', {
          username: 'acme',
          password: 'correct horse battery staple',
          complements: { branch: '001' },
        })
      ).status,
    ).toBe(201);
    const id = await create(api, { country: 'CO', type: 'person', national_id: '1000000007' });
    await jobs.drain();
    await advance(1_500);
    const check = await get(api, id);
    expect(statusOf(check, 'sandbox-co-bureau').status).toBe('completed');
    expect(scoreOf(check, 'taxes_and_finances')).toMatchObject({ result: 'found', severity: 'high' });
  });
});
