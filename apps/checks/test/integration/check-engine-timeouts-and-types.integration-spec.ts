import {
  advance,
  finishedEvents,
  HOUR,
  jobs,
  MINUTE,
  scoreOf,
  SECOND,
  tenant,
  useCheckEngine,
} from './check-engine-fixture';
import { createCheck as create, getCheck as get, statusOf } from './check-helpers';

describe('check engine (sandbox collectors, ManualClock)', () => {
  useCheckEngine();

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
