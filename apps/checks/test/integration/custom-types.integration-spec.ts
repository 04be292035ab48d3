import { ApiClient, createTenant } from '@kyc/testing';

import { ChecksResources, useChecksResources } from './check-resources.setup';

/** Custom check types and their weights (/v1/config). */
describe('checks: custom types', () => {
  const ctx = useChecksResources();
  const { clock, count } = ctx;
  let checks: ChecksResources['checks'];
  let account: ChecksResources['account'];
  let a: ChecksResources['a'];
  let api: ChecksResources['api'];
  let other: ChecksResources['other'];
  beforeAll(() => {
    ({ checks, account, a, api, other } = ctx);
  });

  describe('custom types (/v1/config)', () => {
    it('creates a type in the public ScoreConfig shape, and refuses a second one with the same name', async () => {
      const res = await api.post('/v1/config', {
        country: 'CO',
        type: 'onboarding',
        dataset_personal_identity: '0.5',
        dataset_criminal_record: '0.3',
        dataset_alert_in_media: '0.2',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        client_id: a.tenantId,
        config_id: expect.stringMatching(/^CFG/),
        score_configs: {
          CO: {
            onboarding: expect.arrayContaining([
              { data_set: 'personal_identity', weight: 0.5 },
              { data_set: 'criminal_record', weight: 0.3 },
              { data_set: 'alert_in_media', weight: 0.2 },
            ]),
          },
        },
      });
      const again = await api.post('/v1/config', { country: 'CO', type: 'onboarding', dataset_personal_identity: '1' });
      expect(again.body).toMatchObject({ code: 409, error_code: 'custom_type_exists' });
    });

    it.each([
      [{ country: 'CR' }, ['country']],
      [{ type: 'person' }, ['type']],
      [{ type: 'Vehicle' }, ['type']],
      [{ type: '' }, ['type']],
      [{ dataset_criminal_record: '1.5', dataset_personal_identity: undefined }, ['dataset_criminal_record']],
      [
        { dataset_criminal_record: '-0.5', dataset_personal_identity: '1.5' },
        ['dataset_criminal_record', 'dataset_personal_identity'],
      ],
      [{ dataset_criminal_record: 'heavy' }, ['dataset_criminal_record']],
      [{ dataset_criminal_record: '0.3' }, ['dataset_criminal_record', 'dataset_personal_identity']],
      [{ dataset_personal_identity: undefined }, ['weights']],
      [
        {
          dataset_personal_identity: '0.33333',
          dataset_criminal_record: '0.33333',
          dataset_legal_background: '0.33333',
        },
        ['dataset_criminal_record', 'dataset_legal_background', 'dataset_personal_identity'],
      ],
    ])('%j -> 400 naming %j, nothing stored', async (change, fields) => {
      const before = await count('custom_types', a.tenantId);
      const res = await api.post('/v1/config', {
        country: 'CO',
        type: 'bad-type',
        dataset_personal_identity: '1',
        ...change,
      });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field).sort()).toEqual(fields);
      expect(await count('custom_types', a.tenantId)).toBe(before);
    });

    it('accepts weights that sum to 1 within 1e-6', async () => {
      expect(
        (
          await api.post('/v1/config', {
            country: 'PE',
            type: 'thirds',
            dataset_personal_identity: '0.3333333',
            dataset_criminal_record: '0.3333333',
            dataset_legal_background: '0.3333334',
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await api.post('/v1/config', {
            country: 'PE',
            type: 'tenths',
            dataset_personal_identity: '0.1',
            dataset_criminal_record: '0.2',
            dataset_legal_background: '0.7',
          })
        ).status,
      ).toBe(201);
    });

    it('updates with PUT (404 for an unknown type, 400 for built-ins)', async () => {
      const res = await api.put('/v1/config', { country: 'CO', type: 'onboarding', dataset_personal_identity: '1' });
      expect(res.status).toBe(200);
      expect(res.body.score_configs).toEqual({ CO: { onboarding: [{ data_set: 'personal_identity', weight: 1 }] } });
      expect(
        (await api.put('/v1/config', { country: 'CO', type: 'nothing-here', dataset_personal_identity: '1' })).body,
      ).toMatchObject({ code: 404, error_code: 'custom_type_not_found' });
      expect(
        (await api.put('/v1/config', { country: 'CO', type: 'company', dataset_personal_identity: '1' })).body,
      ).toMatchObject({ code: 400, error_code: 'built_in_type' });
    });

    it('lists the types page by page with start_key', async () => {
      const t = await createTenant(account.url, [checks.url]);
      const client = new ApiClient(checks.url, t.apiKey);
      for (let i = 0; i < 22; i++) {
        clock.advance(1);
        expect(
          (
            await client.post('/v1/config', {
              country: i % 2 ? 'MX' : 'CO',
              type: `t${i}`,
              dataset_alert_in_media: '1',
            })
          ).status,
        ).toBe(201);
      }
      const first = await client.get('/v1/config');
      expect(first.body.score_configs).toHaveLength(20);
      const next = new URL(first.body.next);
      const second = await client.get(next.pathname + next.search);
      expect(second.body.score_configs).toHaveLength(2);
      expect(second.body.next).toBeUndefined();
    });

    it('deletes a type and returns the remaining ones of its country; built-ins cannot be deleted', async () => {
      expect(
        (await api.post('/v1/config', { country: 'CO', type: 'temporary', dataset_traffic_fines: '1' })).status,
      ).toBe(201);
      const res = await api.delete('/v1/config?country=CO&type=temporary');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.score_configs.CO).sort()).toEqual(['onboarding']);
      expect((await api.delete('/v1/config?country=CO&type=temporary')).body).toMatchObject({
        code: 404,
        error_code: 'custom_type_not_found',
      });
      for (const builtIn of ['person', 'vehicle', 'company'])
        expect((await api.delete(`/v1/config?country=CO&type=${builtIn}`)).body).toMatchObject({
          code: 400,
          error_code: 'built_in_type',
          fields: [{ field: 'type', message: expect.any(String) }],
        });
      expect((await api.delete('/v1/config?country=co&type=onboarding')).body.fields).toEqual([
        { field: 'country', message: expect.any(String) },
      ]);
      expect((await api.delete('/v1/config?country=CO')).body.fields).toEqual([
        { field: 'type', message: expect.any(String) },
      ]);
    });

    it('is per tenant: another tenant neither sees nor deletes them, and may reuse the name', async () => {
      expect(JSON.stringify((await other.get('/v1/config')).body.score_configs)).not.toContain('onboarding');
      expect((await other.delete('/v1/config?country=CO&type=onboarding')).status).toBe(404);
      expect(
        (await other.post('/v1/config', { country: 'CO', type: 'onboarding', dataset_alert_in_media: '1' })).status,
      ).toBe(201);
      const configs: { country: string; type: string; ScoreConfigByCountry: unknown }[] = (await api.get('/v1/config'))
        .body.score_configs;
      expect(configs.find((c) => c.country === 'CO' && c.type === 'onboarding')?.ScoreConfigByCountry).toEqual([
        { data_set: 'personal_identity', weight: '1' },
      ]);
    });
  });
});
