import { db } from '@kyc/testing';

import { ChecksResources, useChecksResources } from './check-resources.setup';

/** The database health dashboard (GET /v1/health). */
describe('checks: database health', () => {
  const ctx = useChecksResources();
  const { clock, runCheck } = ctx;
  let api: ChecksResources['api'];
  beforeAll(() => {
    ({ api } = ctx);
  });

  describe('GET /v1/health', () => {
    const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

    beforeAll(async () => {
      // The dashboard counts every tenant's runs, and this suite's engine runs any due work of the
      // schema at this suite's time: checks and jobs an earlier suite of this worker left
      // (check-worker-restart kills a worker mid-check) would add runs here. Start from none.
      await db().query(`DELETE FROM checks.jobs`);
      await db().query(`DELETE FROM checks.check_start_claims`);
      await db().query(
        `UPDATE checks.checks SET status = 'error' WHERE status IN ('not_started', 'in_progress', 'delayed')`,
      );
      await db().query(`DELETE FROM checks.collector_runs`);
      // Peru's police database fails every time here; the identity registry answers.
      for (let i = 0; i < 3; i++)
        await runCheck(api, { country: 'PE', type: 'person', national_id: `4000000${i + 1}` });
    });

    it('computes each database’s status from the runs the collectors recorded', async () => {
      const res = await api.get(
        `/v1/health?country=PE&unixTimestampSeconds=${nowSeconds()}&unixtimezoneOffsetSeconds=-18000`,
      );
      expect(res.status).toBe(200);
      const byId = Object.fromEntries(res.body.map((d: any) => [d.database_id, d]));
      expect(Object.keys(byId).sort()).toEqual([
        'sandbox-pe-judicial',
        'sandbox-pe-police',
        'sandbox-pe-reniec',
        'sandbox-pe-sat',
        'sandbox-pe-sunarp',
        'sandbox-pe-sunat',
      ]);
      expect(byId['sandbox-pe-police']).toMatchObject({
        status: 'major_outage',
        runs: 3,
        data_sets: ['criminal_record'],
      });
      expect(byId['sandbox-pe-reniec']).toMatchObject({
        status: 'operational',
        runs: 3,
        data_sets: ['personal_identity'],
      });
      expect(byId['sandbox-pe-sunarp']).toMatchObject({ status: 'undetermined', runs: 0 });
      // 15:30 UTC is 10:30 in UTC-5: that hour has the runs, later hours have not happened yet.
      expect(byId['sandbox-pe-police'].hourly_status).toHaveLength(24);
      expect(byId['sandbox-pe-police'].hourly_status[10]).toBe('major_outage');
      expect(byId['sandbox-pe-reniec'].hourly_status[10]).toBe('operational');
      expect(byId['sandbox-pe-reniec'].hourly_status[9]).toBe('undetermined');
      expect(byId['sandbox-pe-reniec'].hourly_status[11]).toBe('undetermined');
      expect(
        (
          await db().query(
            `SELECT count(*)::int AS n FROM checks.collector_runs WHERE database_id = 'sandbox-pe-police' AND outcome = 'error'`,
          )
        ).rows[0].n,
      ).toBeGreaterThanOrEqual(3);
    });

    it('gives the hourly status of another day, and answers on /v1/checks/health too', async () => {
      const yesterday = nowSeconds() - 86_400;
      const res = await api.get(
        `/v1/checks/health?country=PE&unixTimestampSeconds=${yesterday}&unixtimezoneOffsetSeconds=-18000`,
      );
      expect(res.status).toBe(200);
      for (const d of res.body)
        expect([d.database_id, d.status, new Set(d.hourly_status)]).toEqual([
          d.database_id,
          'undetermined',
          new Set(['undetermined']),
        ]);
      const alias = await api.get(
        `/v1/checks/health?country=PE&unixTimestampSeconds=${nowSeconds()}&unixtimezoneOffsetSeconds=-18000`,
      );
      expect(alias.body).toEqual(
        (await api.get(`/v1/health?country=PE&unixTimestampSeconds=${nowSeconds()}&unixtimezoneOffsetSeconds=-18000`))
          .body,
      );
      expect((await api.get('/v1/health?country=ALL')).body.map((d: any) => d.database_id).sort()).toEqual([
        'sandbox-int-media',
        'sandbox-int-sanctions',
      ]);
      expect((await api.get('/v1/health?country=AR')).body).toEqual([]);
    });

    it.each([
      ['country=pe', 'country'],
      ['unixTimestampSeconds=1', 'country'],
      ['country=PE&unixTimestampSeconds=yesterday', 'unixTimestampSeconds'],
      ['country=PE&unixtimezoneOffsetSeconds=99999', 'unixtimezoneOffsetSeconds'],
    ])('?%s -> 400 naming %s', async (query, field) => {
      const res = await api.get(`/v1/health?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field)).toContain(field);
    });

    it('needs an API key', async () => {
      expect((await api.withKey(undefined).get('/v1/health?country=PE')).status).toBe(401);
    });
  });
});
