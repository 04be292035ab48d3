import { db, eventually } from '@kyc/testing';

import { upload, withPart, xlsx, zipOf, zipParts } from './batch-helpers';
import {
  api,
  apiB,
  base,
  batchCount,
  newBatch,
  nextNationalId,
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

  describe('bounds what a file expands to (refused with 400 naming file, before it costs the service)', () => {
    const SHEET = 'xl/worksheets/sheet1.xml';
    const STRINGS = 'xl/sharedStrings.xml';
    /** A valid file with its first worksheet replaced by these <sheetData> contents. */
    const withSheetData = async (rows: string) => {
      const file = await xlsx([person()]);
      const sheet = zipParts(file)
        .find((p) => p.name === SHEET)!
        .data.toString();
      return withPart(
        file,
        SHEET,
        sheet.replace(/<sheetData>[\s\S]*<\/sheetData>|<sheetData\/>/, `<sheetData>${rows}</sheetData>`),
      );
    };
    const refused = async (file: Buffer, message: RegExp) => {
      const { file_upload_link: link } = await newBatch();
      const res = await upload(link, file);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error_code: 'invalid_batch_file', fields: [{ field: 'file', message }] });
    };

    it("reads a file whose shared strings come after its sheet (the zip's last part) right every time (50 reads)", async () => {
      const names = ['Ana', 'Bruno', 'Carla'];
      const normal = await xlsx([
        ['user_authorized', 'national_id', 'first_name', 'last_name'],
        ...names.map((n) => ['true', nextNationalId(), n, 'Perez']),
      ]);
      const parts = zipParts(normal);
      const strings = parts.find((p) => p.name === STRINGS)!;
      const file = zipOf([...parts.filter((p) => p !== strings), strings]);
      expect(
        zipParts(file)
          .map((p) => p.name)
          .at(-1),
      ).toBe(STRINGS);
      expect(zipParts(file).findIndex((p) => p.name === SHEET)).toBeLessThan(zipParts(file).length - 1);
      const ids = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const { file_upload_link: link, batch } = await newBatch();
          const res = await upload(link, file);
          expect(res.status).toBe(200);
          expect((await api.get(`/v1/batches/${batch.batch_id}`)).body.batch.progress.rows_total).toBe(3);
          return batch.batch_id;
        }),
      );
      // What was read is the names themselves, not placeholders: the stored rows of a started batch.
      expect((await api.post(`/v1/batches/${ids[0]}/start`, {})).status).toBe(200);
      await eventually(async () => {
        const { rows } = await db().query<{ inputs: Record<string, string> }>(
          `SELECT inputs FROM checks.batch_rows WHERE batch_id = $1 ORDER BY row_number`,
          [ids[0]],
        );
        expect(rows.map((r) => r.inputs.first_name)).toEqual(names);
      });
    });

    it('never reads a cell naming a shared string the file does not have as empty', async () => {
      await refused(
        await withSheetData('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>99</v></c></row>'),
        /cell B1 .*shared strings/,
      );
    });

    it('counts every sheet row, empty ones included (a sheet of 300,000 empty rows)', async () => {
      const rows = Array.from({ length: 300_000 }, (_, i) => `<row r="${i + 1}"/>`).join('');
      await refused(await withSheetData(rows), /more than 200000 rows in its sheet \(empty rows included\)/);
    });

    it('bounds the length of one text (a shared string of 40,000 characters)', async () => {
      const file = await xlsx([person('x'.repeat(40_000))]);
      await refused(file, /text longer than 32767 characters/);
    });

    it('bounds the count of shared strings', async () => {
      const many = Array.from({ length: 1_000_001 }, () => '<si><t>a</t></si>').join('');
      const file = withPart(await xlsx([person()]), STRINGS, `<sst count="1000001">${many}</sst>`);
      await refused(file, /more than 1000000 distinct texts/);
    });

    it('bounds what one part expands to, whatever its header says (65 MiB of sheet in a small file)', async () => {
      const file = await withSheetData(' '.repeat(65 * 1024 * 1024));
      expect(file.length).toBeLessThan(200 * 1024);
      await refused(file, /expands to more than 67108864 bytes/);
    });
  });

  describe('counts refused files against the upload link', () => {
    it('spends the link after 3 refused files (403 upload_link_spent), a good file included', async () => {
      const { file_upload_link: link, batch } = await newBatch();
      for (const left of ['2 more files', '1 more file', 'now spent']) {
        const res = await upload(link, Buffer.from('not a spreadsheet'));
        expect(res.status).toBe(400);
        expect(res.body.message).toContain(left);
      }
      const res = await upload(link, await xlsx([person()]));
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 403, error_code: 'upload_link_spent' });
      expect((await api.get(`/v1/batches/${batch.batch_id}`)).body.batch.status).toBe('created');
    });

    it('lets a burst of concurrent files take no more tries than the link has', async () => {
      const { file_upload_link: link } = await newBatch();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => upload(link, Buffer.from('not a spreadsheet'))),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([400, 400, 400, 403, 403, 403, 403, 403]);
    });
  });
});
