import { ApiClient, createTenant } from '@kyc/testing';

import { ChecksResources, useChecksResources } from './check-resources.setup';

/** Tenant settings of the engine (/v1/settings). */
describe('checks: settings', () => {
  const ctx = useChecksResources();
  let checks: ChecksResources['checks'];
  let account: ChecksResources['account'];
  let api: ChecksResources['api'];
  let other: ChecksResources['other'];
  beforeAll(() => {
    ({ checks, account, api, other } = ctx);
  });

  describe('settings (/v1/settings)', () => {
    it('has the spec’s defaults', async () => {
      const t = await createTenant(account.url, [checks.url]);
      const res = await new ApiClient(checks.url, t.apiKey).get('/v1/settings');
      expect(res.body).toEqual({
        max_duration: null,
        names_matching_type: 'soft',
        retries: false,
        max_duration_by_country: { ALL: '48h', BR: '3h', CO: '3h', CL: '48h', MX: '3h', PE: '3h', CR: '72h' },
        update_date: null,
      });
    });

    it.each([
      [{ max_duration: '14m' }, 'max_duration'],
      [{ max_duration: '169h' }, 'max_duration'],
      [{ max_duration: '2d' }, 'max_duration'],
      [{ max_duration: '90' }, 'max_duration'],
      [{ names_matching_type: 'fuzzy' }, 'names_matching_type'],
      [{ retries: 'often' }, 'retries'],
    ])('%j -> 400 naming %s, nothing stored', async (body, field) => {
      const before = (await api.get('/v1/settings')).body;
      const res = await api.post('/v1/settings', body);
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([{ field, message: expect.any(String) }]);
      expect((await api.get('/v1/settings')).body).toEqual(before);
    });

    it('stores what is sent and keeps the rest; retries makes the default 48 h everywhere; per tenant', async () => {
      expect((await api.post('/v1/settings', { max_duration: '15m' })).body).toMatchObject({
        max_duration: '15m',
        max_duration_by_country: { CO: '15m', CR: '15m' },
      });
      expect(
        (await api.post('/v1/settings', { max_duration: '168h', names_matching_type: 'exact' })).body,
      ).toMatchObject({ max_duration: '168h', names_matching_type: 'exact', retries: false });
      const t = await createTenant(account.url, [checks.url]);
      const fresh = new ApiClient(checks.url, t.apiKey);
      expect((await fresh.post('/v1/settings', { retries: 'true' })).body).toMatchObject({
        retries: true,
        max_duration: null,
        max_duration_by_country: { CO: '48h', CR: '48h', CL: '48h' },
      });
      expect((await api.get('/v1/settings')).body).toMatchObject({
        max_duration: '168h',
        names_matching_type: 'exact',
        retries: false,
      });
      expect((await other.get('/v1/settings')).body).toMatchObject({ max_duration: null, names_matching_type: 'soft' });
    });
  });
});
