import { execFileSync } from 'node:child_process';

import { ManualClock } from '@kyc/platform';
import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  RunningService,
  startInProcess,
  startService,
  TestTenant,
} from '@kyc/testing';

import { checksService } from '../../src/app.module';
import { readXlsx, upload, xlsx } from './batch-helpers';

/** A ManualClock that keeps following real time, moved ahead by advance() (link expiry without sleeping). */
class ShiftedClock extends ManualClock {
  private offset = 0;
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
  advance(ms: number): Date {
    this.offset += ms;
    return this.now();
  }
}

const MAPPING = {
  'columns_mapping.user_authorized': 0,
  'columns_mapping.national_id': 1,
  'columns_mapping.first_name': 2,
  'columns_mapping.last_name': 3,
};
const base = { country: 'CO', service: 'checks', type: 'person' };

describe('batches API (xlsx file -> one check per row)', () => {
  let account: RunningService;
  let checks: RunningService;
  let tenantA: TestTenant;
  let tenantB: TestTenant;
  let api: ApiClient;
  let apiB: ApiClient;
  const clock = new ShiftedClock();
  let nationalId = 3_000_000;
  const person = (name = 'Ana') => ['true', String(nationalId++), name, 'Perez'];

  beforeAll(async () => {
    [account, checks] = await Promise.all([
      startService('account', { KAFKA_CONSUMER_GROUP: 'account-batches-spec' }),
      startInProcess(
        'checks',
        checksService,
        { CHECKS_SANDBOX_LATENCY_SCALE: '0', JOBS_POLL_MS: '100', CHECKS_BATCH_ROWS_PER_JOB: '50' },
        { clock },
      ),
    ]);
    [tenantA, tenantB] = await Promise.all([
      createTenant(account.url, [checks.url]),
      createTenant(account.url, [checks.url]),
    ]);
    api = new ApiClient(checks.url, tenantA.apiKey);
    apiB = new ApiClient(checks.url, tenantB.apiKey);
  });

  afterAll(async () => {
    await Promise.all([checks?.close(), account?.close()]);
    // The engine jobs of this suite's checks must not hold up the next suites' workers.
    await db().query(`DELETE FROM checks.jobs WHERE tenant_id = ANY($1)`, [
      [tenantA?.tenantId, tenantB?.tenantId].filter(Boolean),
    ]);
    await closeDb();
  });

  const count = async (sql: string, params: unknown[]) => (await db().query(sql, params)).rows[0].n as number;
  const batchCount = (tenant: TestTenant) =>
    count(`SELECT count(*)::int AS n FROM checks.batches WHERE tenant_id = $1`, [tenant.tenantId]);
  const newBatch = async (body: Record<string, string | number> = { ...base, ...MAPPING }) => {
    const res = await api.post('/v1/batches', body);
    expect(res.status).toBe(201);
    return res.body as { batch: { batch_id: string }; columns: (string | null)[]; file_upload_link: string };
  };
  const uploadedBatch = async (rows: (string | number | null)[][]) => {
    const created = await newBatch();
    const res = await upload(created.file_upload_link, await xlsx(rows));
    expect(res.status).toBe(200);
    return created.batch.batch_id;
  };

  it('runs the whole flow: create, upload, start, progress, per-row errors and the report (xlsx, csv and pdf)', async () => {
    const created = await newBatch();
    expect(created.columns).toEqual(['user_authorized', 'national_id', 'first_name', 'last_name']);
    expect(created.batch).toMatchObject({ status: 'created', country: 'CO', service: 'checks', type: 'person' });
    expect(created.file_upload_link).toMatch(
      new RegExp(`^${checks.url}/v1/batches/${created.batch.batch_id}/file\\?expires=\\d+&signature=`),
    );
    const id = created.batch.batch_id;
    // Creation neither uploads nor starts.
    expect((await api.get(`/v1/batches/${id}`)).body.batch).toMatchObject({
      status: 'created',
      progress: { rows_total: 0 },
    });

    const file = await xlsx([
      ['user_authorized', 'national_id', 'first_name', 'last_name'],
      person('Ana'),
      ['true', 'bad id!', 'Luis', 'Rojas'], // national_id refused by the check rules
      person('Eva'),
      [],
      person('Rosa'),
      ['false', String(nationalId++), 'Juan', 'Diaz'], // user_authorized false
    ]);
    const up = await upload(created.file_upload_link, file);
    expect(up.status).toBe(200);
    expect(up.body.batch).toMatchObject({ status: 'file_uploaded' });
    expect((await api.get(`/v1/batches/${id}`)).body.batch).toMatchObject({
      status: 'file_uploaded',
      progress: { rows_total: 5, rows_created: 0 },
    });
    expect(await count(`SELECT count(*)::int AS n FROM checks.checks WHERE tenant_id = $1`, [tenantA.tenantId])).toBe(
      0,
    );

    const started = await api.post(`/v1/batches/${id}/start`);
    expect(started.status).toBe(200);
    expect(started.body.batch.status).toBe('processing');

    const done = await eventually(
      async () => {
        const b = (await api.get(`/v1/batches/${id}`)).body.batch;
        expect(b).toMatchObject({
          status: 'completed',
          progress: { rows_total: 5, rows_created: 3, rows_failed: 2, rows_pending: 0, checks_completed: 3 },
        });
        return b;
      },
      { timeoutMs: 75_000, intervalMs: 200 },
    );
    expect(done.finished_at).toEqual(expect.any(String));
    const rows = (
      await db().query(
        `SELECT row_number, status, check_id, errors FROM checks.batch_rows WHERE batch_id = $1 ORDER BY row_number`,
        [id],
      )
    ).rows;
    expect(rows.map((r) => [r.row_number, r.status])).toEqual([
      [2, 'created'],
      [3, 'failed'],
      [4, 'created'],
      [6, 'created'],
      [7, 'failed'],
    ]);
    expect(rows[1].errors).toEqual([{ field: 'national_id', message: expect.any(String) }]);
    expect(rows[4].errors).toEqual([expect.objectContaining({ field: 'user_authorized' })]);
    const checkIds = rows.filter((r) => r.check_id).map((r) => r.check_id);
    expect(new Set(checkIds).size).toBe(3);
    const stored = (
      await db().query(`SELECT id, inputs, created_by FROM checks.checks WHERE tenant_id = $1 ORDER BY id`, [
        tenantA.tenantId,
      ])
    ).rows;
    expect(stored.map((c) => c.id).sort()).toEqual([...checkIds].sort());
    expect(stored[0].created_by).toBe(tenantA.adminUserId);
    expect((await api.get(`/v1/checks/${checkIds[0]}`)).body.check).toMatchObject({
      status: 'completed',
      first_name: 'Ana',
    });

    // Report: none yet -> 404; requested -> 202 while generating, then the file.
    expect((await api.get(`/v1/batches/${id}/report`)).status).toBe(404);
    const requested = await api.post(`/v1/batches/${id}/report`, { format: 'xlsx' });
    expect(requested.status).toBe(202);
    const report = await eventually(
      async () => {
        const res = await fetch(`${checks.url}/v1/batches/${id}/report`, {
          headers: { 'Service-API-Key': tenantA.apiKey },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toContain('spreadsheetml');
        return Buffer.from(await res.arrayBuffer());
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    const sheet = await readXlsx(report);
    expect(sheet[0]).toEqual([
      'row_number',
      'status',
      'check_id',
      'check_status',
      'score',
      'id_score',
      'homonym_score',
      'error_fields',
      'error_messages',
    ]);
    expect(sheet).toHaveLength(6);
    expect(sheet[1].slice(0, 4)).toEqual(['2', 'created', checkIds[0], 'completed']);
    expect(Number(sheet[1][4])).toBeGreaterThanOrEqual(0);
    expect(sheet[1][5]).not.toBe('');
    expect(sheet[1][6]).not.toBe('');
    expect(sheet[2].slice(0, 3)).toEqual(['3', 'failed', '']);
    expect(sheet[2][7]).toBe('national_id');

    expect((await api.post(`/v1/batches/${id}/report`, { format: 'CSV' })).status).toBe(202);
    const csv = await eventually(
      async () => {
        const res = await fetch(`${checks.url}/v1/batches/${id}/report`, {
          headers: { 'Service-API-Key': tenantA.apiKey },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toContain('text/csv');
        return res.text();
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    const lines = csv.trim().split('\r\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(
      'row_number,status,check_id,check_status,score,id_score,homonym_score,error_fields,error_messages',
    );
    expect(lines[4]).toMatch(new RegExp(`^6,created,${checkIds[2]},completed,`));
    expect(lines[5]).toMatch(/^7,failed,,,,,,user_authorized,/);

    // The PDF report: the same rows, the batch id in its header.
    expect((await api.post(`/v1/batches/${id}/report`, { format: 'pdf' })).status).toBe(202);
    const pdf = await eventually(
      async () => {
        const res = await fetch(`${checks.url}/v1/batches/${id}/report`, {
          headers: { 'Service-API-Key': tenantA.apiKey },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toContain('application/pdf');
        return Buffer.from(await res.arrayBuffer());
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    const text = execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', '-', '-'], { input: pdf })
      .toString('utf8')
      .replace(/\s+/g, ' ');
    expect(text).toContain(id);
    for (const checkId of checkIds) expect(text).toContain(checkId);
    expect(text).toMatch(/Página 1 de \d+/);
  }, 180_000);

  it('maps every input of the type in the documented order when columns_mapping is not given', async () => {
    const res = await api.post('/v1/batches', base);
    expect(res.status).toBe(201);
    expect(res.body.columns.slice(0, 6)).toEqual([
      'user_authorized',
      'custom_input',
      'national_id',
      'document_type',
      'first_name',
      'last_name',
    ]);
    expect(res.body.columns).toContain('region');
    expect(res.body.columns.at(-1)).toBe('report_id');
    const vehicle = await api.post('/v1/batches', { ...base, type: 'vehicle' });
    expect(vehicle.body.columns).toEqual([
      'user_authorized',
      'custom_input',
      'license_plate',
      'vehicle_id',
      'owner_document_id',
      'owner_document_type',
      'payment_date',
      'imei',
      'report_id',
    ]);
    // JSON bodies may send the mapping as an object; gaps are ignored columns.
    const json = await api.postJson('/v1/batches', {
      ...base,
      type: 'company',
      columns_mapping: { tax_id: 2, user_authorized: 0 },
    });
    expect(json.status).toBe(201);
    expect(json.body.columns).toEqual(['user_authorized', null, 'tax_id']);
  });

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

  it('accepts a continuous batch (frequency and end_date): each check gets its continuous check', async () => {
    const created = await api.post('/v1/batches', { ...base, ...MAPPING, frequency: 'weekly', end_date: '2099-12-31' });
    expect(created.status).toBe(201);
    expect(created.body.batch).toMatchObject({ frequency: 'weekly', end_date: '2099-12-31' });
    expect((await upload(created.body.file_upload_link, await xlsx([person()]))).status).toBe(200);
    expect((await api.post(`/v1/batches/${created.body.batch.batch_id}/start`)).status).toBe(200);
    const row = await eventually(
      async () => {
        const r = (
          await db().query(`SELECT check_id FROM checks.batch_rows WHERE batch_id = $1 AND check_id IS NOT NULL`, [
            created.body.batch.batch_id,
          ])
        ).rows[0];
        expect(r).toBeDefined();
        return r;
      },
      { timeoutMs: 30_000 },
    );
    // One continuous check per created check, committed with it.
    const cc = (
      await db().query(
        `SELECT frequency, end_date::text AS end_date, tenant_id FROM checks.continuous_checks WHERE check_id = $1`,
        [row.check_id],
      )
    ).rows;
    expect(cc).toEqual([{ frequency: 'weekly', end_date: '2099-12-31', tenant_id: tenantA.tenantId }]);
  });

  describe('the upload link', () => {
    it('refuses a forged or incomplete link with 401 in the envelope', async () => {
      const { file_upload_link: link, batch } = await newBatch();
      const file = await xlsx([person()]);
      const forged = link.replace(/signature=[^&]+/, 'signature=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
      const res = await upload(forged, file);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 401, error_code: 'invalid_upload_link' });
      // A later expiry with the same signature is forged too.
      const url = new URL(link);
      url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
      expect((await upload(url.toString(), file)).status).toBe(401);
      // The signature binds the batch id.
      const other = await newBatch();
      expect((await upload(link.replace(batch.batch_id, other.batch.batch_id), file)).status).toBe(401);
      expect((await upload(link.split('?')[0], file)).status).toBe(401);
      expect((await api.get(`/v1/batches/${batch.batch_id}`)).body.batch.status).toBe('created');
    });

    it('refuses an expired link with 403 (valid 30 minutes)', async () => {
      const { file_upload_link: link, batch } = await newBatch();
      clock.advance(29 * 60_000);
      const early = await newBatch();
      clock.advance(2 * 60_000);
      const res = await upload(link, await xlsx([person()]));
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 403, error_code: 'upload_link_expired' });
      expect((await api.get(`/v1/batches/${batch.batch_id}`)).body.batch.status).toBe('created');
      expect(
        await count(`SELECT count(*)::int AS n FROM checks.batch_files WHERE batch_id = $1`, [batch.batch_id]),
      ).toBe(0);
      // A link created 2 minutes ago still works.
      expect((await upload(early.file_upload_link, await xlsx([person()]))).status).toBe(200);
    });

    it('accepts the first file only: a second upload is 409', async () => {
      const { file_upload_link: link, batch } = await newBatch();
      expect((await upload(link, await xlsx([person()]))).status).toBe(200);
      const second = await upload(link, await xlsx([person(), person()]));
      expect(second.status).toBe(409);
      expect(second.body).toMatchObject({ code: 409, error_code: 'file_already_uploaded' });
      expect((await api.get(`/v1/batches/${batch.batch_id}`)).body.batch.progress.rows_total).toBe(1);
    });

    it('refuses a body that is not an xlsx file (400 naming file) without using the link up; octet-stream is accepted', async () => {
      const { file_upload_link: link, batch } = await newBatch();
      const res = await upload(link, Buffer.from('not a spreadsheet'));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error_code: 'invalid_batch_file',
        fields: [{ field: 'file', message: expect.any(String) }],
      });
      const empty = await upload(link, await xlsx([]));
      expect(empty.status).toBe(400);
      expect((await api.get(`/v1/batches/${batch.batch_id}`)).body.batch.status).toBe('created');
      expect((await upload(link, await xlsx([person()]), 'application/octet-stream')).status).toBe(200);
    });

    it('keeps other routes refusing spreadsheet bodies (415)', async () => {
      const res = await fetch(`${checks.url}/v1/checks`, {
        method: 'POST',
        headers: { 'Service-API-Key': tenantA.apiKey, 'content-type': 'application/octet-stream' },
        body: 'x',
      });
      expect(res.status).toBe(415);
    });
  });

  describe('start and stop', () => {
    it('refuses to start before the file is uploaded (409) and to start twice', async () => {
      const { batch, file_upload_link: link } = await newBatch();
      const early = await api.post(`/v1/batches/${batch.batch_id}/start`);
      expect(early.status).toBe(409);
      expect(early.body).toMatchObject({ code: 409, error_code: 'batch_file_not_uploaded' });
      expect((await upload(link, await xlsx([person()]))).status).toBe(200);
      expect((await api.post(`/v1/batches/${batch.batch_id}/start`)).status).toBe(200);
      const again = await api.post(`/v1/batches/${batch.batch_id}/start`);
      expect(again.status).toBe(409);
      expect(again.body.error_code).toBe('batch_not_startable');
    });

    it('stops a batch before it starts: it never creates checks', async () => {
      const id = await uploadedBatch([person(), person()]);
      const stopped = await api.put(`/v1/batches/${id}`);
      expect(stopped.status).toBe(200);
      expect(stopped.body.batch.status).toBe('stopped');
      expect((await api.post(`/v1/batches/${id}/start`)).status).toBe(409);
      expect((await api.put(`/v1/batches/${id}`)).status).toBe(409);
      expect(await count(`SELECT count(*)::int AS n FROM checks.batch_rows WHERE batch_id = $1`, [id])).toBe(0);
    });

    it('stops a running batch: the remaining rows are not created', async () => {
      const id = await uploadedBatch(Array.from({ length: 400 }, () => person()));
      expect((await api.post(`/v1/batches/${id}/start`)).status).toBe(200);
      await eventually(
        async () =>
          expect(
            await count(`SELECT count(*)::int AS n FROM checks.batch_rows WHERE batch_id = $1 AND status = 'created'`, [
              id,
            ]),
          ).toBeGreaterThan(0),
        {
          timeoutMs: 20_000,
          intervalMs: 10,
        },
      );
      const stopped = await api.put(`/v1/batches/${id}`);
      expect(stopped.status).toBe(200);
      expect(stopped.body.batch.status).toBe('stopped');
      await new Promise((r) => setTimeout(r, 1_000));
      const b = (await api.get(`/v1/batches/${id}`)).body.batch;
      expect(b.status).toBe('stopped');
      expect(b.progress.rows_created).toBeLessThan(400);
      expect(b.progress.rows_created + b.progress.rows_stopped).toBe(400);
      expect(b.progress.rows_pending).toBe(0);
      const created = await count(
        `SELECT count(*)::int AS n FROM checks.checks c JOIN checks.batch_rows r ON r.check_id = c.id WHERE r.batch_id = $1`,
        [id],
      );
      expect(created).toBe(b.progress.rows_created);
      await new Promise((r) => setTimeout(r, 500));
      expect(
        await count(`SELECT count(*)::int AS n FROM checks.batch_rows WHERE batch_id = $1 AND status = 'created'`, [
          id,
        ]),
      ).toBe(b.progress.rows_created);
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
