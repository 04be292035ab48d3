import { eventually } from '@kyc/testing';

import { upload, xlsx } from './batch-helpers';
import {
  api,
  checks,
  clock,
  count,
  newBatch,
  person,
  tenantA,
  uploadedBatch,
  useBatchesApi,
} from './batches-api-fixture';

describe('batches API (xlsx file -> one check per row)', () => {
  useBatchesApi();

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

    it('refuses a body that is not an xlsx file (400 naming file); the link takes the next file within its 3 tries; octet-stream is accepted', async () => {
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
});
