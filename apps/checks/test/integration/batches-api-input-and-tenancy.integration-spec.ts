import { db } from '@kyc/testing';

import {
  api,
  apiB,
  base,
  batchCount,
  newBatch,
  person,
  tenantA,
  uploadedBatch,
  useBatchesApi,
} from './batches-api-fixture';

describe('batches API (xlsx file -> one check per row)', () => {
  useBatchesApi();

  describe('refuses bad input with 400 naming the field, storing nothing', () => {
    const cases: [string, Record<string, string | number>, string[]][] = [
      ['a bad country', { ...base, country: 'AR' }, ['country']],
      ['a missing country', { service: 'checks', type: 'person' }, ['country']],
      ['a bad service', { ...base, service: 'identity' }, ['service']],
      ['a missing type', { country: 'CO', service: 'checks' }, ['type']],
      ['an unknown custom type', { ...base, type: 'no-such-type' }, ['type']],
      [
        'a mapping of an unknown input',
        { ...base, 'columns_mapping.favourite_color': 1 },
        ['columns_mapping.favourite_color'],
      ],
      [
        'a mapping of an input the type does not take',
        { ...base, 'columns_mapping.license_plate': 1 },
        ['columns_mapping.license_plate'],
      ],
      ['a negative column index', { ...base, 'columns_mapping.national_id': -1 }, ['columns_mapping.national_id']],
      [
        'a column index that is not a number',
        { ...base, 'columns_mapping.national_id': 'A' },
        ['columns_mapping.national_id'],
      ],
      [
        'a duplicate column index',
        { ...base, 'columns_mapping.national_id': 0, 'columns_mapping.first_name': 0 },
        ['columns_mapping.first_name'],
      ],
      ['a bad frequency', { ...base, frequency: 'hourly', end_date: '2099-01-01' }, ['frequency']],
      ['an end_date without frequency', { ...base, end_date: '2099-01-01' }, ['frequency']],
      ['a frequency without end_date', { ...base, frequency: 'weekly' }, ['end_date']],
      ['an end_date that is not a date', { ...base, frequency: 'daily', end_date: '2099-02-30' }, ['end_date']],
      [
        'an end_date that allows no run',
        { ...base, frequency: 'monthly', end_date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) },
        ['end_date'],
      ],
      [
        'several bad fields at once',
        { country: 'XX', service: 'x', type: 'person', 'columns_mapping.national_id': -2 },
        ['country', 'service', 'columns_mapping.national_id'],
      ],
    ];
    it.each(cases)('%s', async (_name, body, fields) => {
      const before = await batchCount(tenantA);
      const res = await api.post('/v1/batches', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 400, status: 'Bad Request', error_code: 'validation_failed' });
      expect(res.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([...fields].sort());
      expect(await batchCount(tenantA)).toBe(before);
    });

    it('a report format other than xlsx, csv or pdf', async () => {
      const id = (await newBatch()).batch.batch_id;
      const res = await api.post(`/v1/batches/${id}/report`, { format: 'docx' });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([{ field: 'format', message: 'format must be one of xlsx, csv, pdf' }]);
      expect(
        (await db().query(`SELECT report_status FROM checks.batches WHERE id = $1`, [id])).rows[0].report_status,
      ).toBeNull();
    });
  });

  it("isolates tenants: another tenant's batch is 404 everywhere", async () => {
    const id = await uploadedBatch([person()]);
    for (const res of [
      await apiB.get(`/v1/batches/${id}`),
      await apiB.post(`/v1/batches/${id}/start`),
      await apiB.put(`/v1/batches/${id}`),
      await apiB.post(`/v1/batches/${id}/report`, { format: 'csv' }),
      await apiB.get(`/v1/batches/${id}/report`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 404, error_code: 'batch_not_found' });
    }
    expect((await api.get(`/v1/batches/${id}`)).body.batch.status).toBe('file_uploaded');
  });

  it('needs an API key on every batch route but the upload link', async () => {
    expect((await api.withKey(undefined).post('/v1/batches', base)).status).toBe(401);
    expect((await api.withKey(undefined).get('/v1/batches/BCHx')).status).toBe(401);
  });
});
