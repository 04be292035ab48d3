import { ChecksResources, useChecksResources } from './check-resources.setup';

/** POST /v1/checks: every input rule at the HTTP boundary (400 naming the field, nothing stored). */
describe('checks: create inputs at the HTTP boundary', () => {
  const ctx = useChecksResources();
  const { clock, count } = ctx;
  let a: ChecksResources['a'];
  let api: ChecksResources['api'];
  beforeAll(() => {
    ({ a, api } = ctx);
  });

  describe('create inputs at the HTTP boundary', () => {
    const valid = { country: 'CO', type: 'person', user_authorized: 'true', national_id: '1000000001' };

    it.each([
      [{ country: 'AR' }, 'country'],
      [{ country: undefined }, 'country'],
      [{ type: undefined }, 'type'],
      [{ user_authorized: 'maybe' }, 'user_authorized'],
      [{ custom_input: '129 characters'.padEnd(129, '.') }, 'custom_input'],
      [{ date_of_birth: '1990-02-30' }, 'date_of_birth'],
      [{ date_of_birth: '2040-01-01' }, 'date_of_birth'],
      [{ issue_date: '15/01/2010' }, 'issue_date'],
      [{ gender: 'other' }, 'gender'],
      [{ native_country: 'AR' }, 'native_country'],
      [{ native_national_id: 'V-123' }, 'native_country'],
      [{ document_type: 'cedula' }, 'document_type'],
      [{ region: 'SP' }, 'region'],
      [{ payment_date: '2025-03-31' }, 'payment_date'],
      [{ state_id: 'AB#1' }, 'state_id'],
      [{ watch: 'hourly' }, 'watch'],
      [{ imei: '12345' }, 'imei'],
      [{ phone_number: 'call me' }, 'phone_number'],
      [{ force_creation: 'sure' }, 'force_creation'],
      [{ national_id: undefined }, 'national_id'],
      [{ national_id: undefined, first_name: 'Ana' }, 'last_name'],
      [{ type: 'vehicle' }, 'license_plate'],
      [{ type: 'company' }, 'tax_id'],
      [{ country: 'BR', national_id: '12345' }, 'national_id'],
      [{ country: 'BR', national_id: undefined, first_name: 'Bruno', last_name: 'Cecatto' }, 'region'],
      [{ country: 'BR', national_id: '12345678909', region: 'XX' }, 'region'],
      [{ country: 'ALL', national_id: undefined, first_name: 'Viktor' }, 'last_name'],
      [{ country: 'ALL', type: 'vehicle', license_plate: 'ABC123' }, 'country'],
      [{ type: 'no-such-type' }, 'type'],
    ])('%j -> 400 naming %s, nothing stored', async (change, field) => {
      const before = await count('checks', a.tenantId);
      const res = await api.post('/v1/checks', { ...valid, ...change });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 400, status: 'Bad Request', message: expect.any(String) });
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(await count('checks', a.tenantId)).toBe(before);
    });

    it('refuses user_authorized=false with user_not_authorized, for key version 0 too', async () => {
      const res = await api.withKey(a.apiKeyV0).post('/v1/checks', { ...valid, user_authorized: 'false' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error_code: 'user_not_authorized',
        fields: [{ field: 'user_authorized', message: expect.any(String) }],
      });
    });

    it('refuses a custom type of another country', async () => {
      expect(
        (await api.post('/v1/config', { country: 'MX', type: 'mx-only', dataset_personal_identity: '1' })).status,
      ).toBe(201);
      const res = await api.post('/v1/checks', { ...valid, type: 'mx-only' });
      expect(res.body).toMatchObject({
        code: 400,
        error_code: 'unknown_check_type',
        fields: [{ field: 'type', message: expect.any(String) }],
      });
    });

    it('accepts the public API’s forms: lowercase country, JSON bodies, numeric IDs; normalizes state_id', async () => {
      const form = await api.post('/v1/checks', {
        ...valid,
        country: 'co',
        national_id: '29478657',
        state_id: '12.345-6*7,8',
      });
      expect(form.status).toBe(201);
      expect(form.body).toMatchObject({
        check: { country: 'CO', national_id: '29478657', state_id: '12345678' },
        details: expect.stringMatching(/\/details$/),
        self: expect.any(String),
      });
      const json = await api.postJson('/v1/checks', {
        country: 'MX',
        type: 'person',
        user_authorized: true,
        national_id: 12345678,
        watch: '2w',
        vehicle_id: '3VWFE21C04M000001',
      });
      expect(json.status).toBe(201);
      expect(json.body.check).toMatchObject({ national_id: '12345678', watch: '2w' });
    });

    it('returns the earlier check for identical inputs within the de-duplication window only', async () => {
      const body = { ...valid, national_id: '31313131' };
      const first = await api.post('/v1/checks', body);
      clock.advance(599_000);
      expect((await api.post('/v1/checks', body)).body.check.check_id).toBe(first.body.check.check_id);
      clock.advance(2_000);
      expect((await api.post('/v1/checks', body)).body.check.check_id).not.toBe(first.body.check.check_id);
    });
  });
});
