import { execFileSync } from 'node:child_process';

import { db, eventually } from '@kyc/testing';

import { readXlsx, upload, xlsx } from './batch-helpers';
import {
  api,
  base,
  checks,
  count,
  MAPPING,
  newBatch,
  nextNationalId,
  person,
  tenantA,
  useBatchesApi,
} from './batches-api-fixture';

describe('batches API (xlsx file -> one check per row)', () => {
  useBatchesApi();

  it('runs the whole flow: create, upload, start, progress, per-row errors and the report (xlsx, csv and pdf)', async () => {
    const created = await newBatch();
    expect(created.columns).toEqual(['user_authorized', 'national_id', 'first_name', 'last_name']);
    expect(created.batch).toMatchObject({ status: 'created', country: 'CO', service: 'checks', type: 'person' });
    // the dates of what has not happened yet are null, as documented (required and nullable), not left out
    expect(created.batch).toMatchObject({ file_uploaded_at: null, started_at: null, finished_at: null });
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
      ['false', nextNationalId(), 'Juan', 'Diaz'], // user_authorized false
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

    // Report: none yet -> 409 (the batch is there, its report not requested); requested -> 202 while generating, then the file.
    const none = await api.get(`/v1/batches/${id}/report`);
    expect([none.status, none.body.error_code]).toEqual([409, 'batch_report_not_requested']);
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
});
