import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

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
import S3rver from 's3rver';

import { checksService } from '../../src/app.module';
import { upload, xlsx } from './batch-helpers';

const BUCKET = 'kyc-batches';
const MAX_FILE_BYTES = 64 * 1024;
/** The keys s3rver checks signatures with. */
const S3RVER_KEYS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

const MAPPING = {
  'columns_mapping.user_authorized': 0,
  'columns_mapping.national_id': 1,
  'columns_mapping.first_name': 2,
  'columns_mapping.last_name': 3,
};
const base = { country: 'CO', service: 'checks', type: 'person' };

/**
 * Batches with CHECKS_BATCH_STORAGE=s3 against a local S3-compatible server (s3rver): the client
 * PUTs the file to the presigned URL, the worker reads it from the bucket. The credentials come from
 * the AWS SDK's default chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY), not from CHECKS_S3_* keys.
 */
describe('batches API with S3 storage (presigned uploads, AWS SDK, s3rver)', () => {
  let s3: S3rver;
  let s3Url: string;
  let s3Dir: string;
  let account: RunningService;
  let checks: RunningService;
  let tenant: TestTenant;
  let api: ApiClient;
  const savedEnv: Record<string, string | undefined> = {};
  let nationalId = 4_100_000;
  const person = (name: string) => ['true', String(nationalId++), name, 'Perez'];

  beforeAll(async () => {
    s3Dir = mkdtempSync(path.join(tmpdir(), 'kyc-s3rver-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port } = await s3.run();
    s3Url = `http://127.0.0.1:${port}`;
    for (const [k, v] of Object.entries(S3RVER_KEYS)) {
      savedEnv[k] = process.env[k];
      process.env[k] = v;
    }
    [account, checks] = await Promise.all([
      startService('account', { KAFKA_CONSUMER_GROUP: 'account-batches-s3-spec' }),
      startInProcess('checks', checksService, {
        CHECKS_SANDBOX_LATENCY_SCALE: '0',
        JOBS_POLL_MS: '100',
        CHECKS_BATCH_STORAGE: 's3',
        CHECKS_S3_ENDPOINT: s3Url,
        CHECKS_S3_BUCKET: BUCKET,
        CHECKS_S3_REGION: 'us-east-1',
        CHECKS_S3_FORCE_PATH_STYLE: 'true',
        CHECKS_BATCH_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
      }),
    ]);
    tenant = await createTenant(account.url, [checks.url]);
    api = new ApiClient(checks.url, tenant.apiKey);
  });

  afterAll(async () => {
    await Promise.all([checks?.close(), account?.close()]);
    if (tenant) await db().query(`DELETE FROM checks.jobs WHERE tenant_id = $1`, [tenant.tenantId]);
    await closeDb();
    await s3?.close();
    if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  const newBatch = async () => {
    const res = await api.post('/v1/batches', { ...base, ...MAPPING });
    expect(res.status).toBe(201);
    return res.body as { batch: { batch_id: string }; file_upload_link: string };
  };
  const batchOf = async (id: string) => (await api.get(`/v1/batches/${id}`)).body.batch;

  it('uploads through the presigned PUT URL and the worker reads the file from the bucket', async () => {
    const created = await newBatch();
    const id = created.batch.batch_id;
    const link = new URL(created.file_upload_link);
    // A path-style presigned URL of the object, on the S3 server, not on the service.
    expect(`${link.protocol}//${link.host}`).toBe(s3Url);
    expect(link.pathname).toBe(`/${BUCKET}/batches/${tenant.tenantId}/${id}.xlsx`);
    expect(link.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(link.searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/);
    expect(Number(link.searchParams.get('X-Amz-Expires'))).toBeGreaterThan(0);

    const file = await xlsx([
      ['user_authorized', 'national_id', 'first_name', 'last_name'],
      person('Ana'),
      ['true', 'bad id!', 'Luis', 'Rojas'], // refused by the check rules
      person('Eva'),
    ]);
    // s3rver checks the access key a link names (not the SigV4 signature itself, which it does not
    // compute): a link re-signed in another key's name is refused.
    const otherKey = new URL(link);
    otherKey.searchParams.set(
      'X-Amz-Credential',
      link.searchParams.get('X-Amz-Credential')!.replace('S3RVER', 'OTHER'),
    );
    expect((await upload(otherKey.toString(), file)).status).toBe(403);
    // The service's own upload route does not take files of S3 storage.
    const direct = await upload(`${checks.url}/v1/batches/${id}/file?expires=1&signature=x`, file);
    expect(direct.status).toBe(401);
    expect(await batchOf(id)).toMatchObject({ status: 'created' });

    expect((await upload(created.file_upload_link, file)).status).toBe(200);

    const started = await api.post(`/v1/batches/${id}/start`);
    expect(started.status).toBe(200);
    expect(started.body.batch.status).toBe('processing');
    await eventually(
      async () =>
        expect(await batchOf(id)).toMatchObject({
          status: 'completed',
          progress: { rows_total: 3, rows_created: 2, rows_failed: 1, rows_pending: 0 },
        }),
      { timeoutMs: 75_000, intervalMs: 200 },
    );
    const rows = (
      await db().query(`SELECT row_number, status FROM checks.batch_rows WHERE batch_id = $1 ORDER BY row_number`, [id])
    ).rows;
    expect(rows.map((r) => [r.row_number, r.status])).toEqual([
      [2, 'created'],
      [3, 'failed'],
      [4, 'created'],
    ]);
    // Nothing of the file was kept in the service's database.
    expect((await db().query(`SELECT 1 FROM checks.batch_files WHERE batch_id = $1`, [id])).rowCount).toBe(0);
  });

  it('fails a batch started without a file in the bucket', async () => {
    const { batch } = await newBatch();
    expect((await api.post(`/v1/batches/${batch.batch_id}/start`)).status).toBe(200);
    await eventually(
      async () =>
        expect(await batchOf(batch.batch_id)).toMatchObject({
          status: 'failed',
          progress: { rows_total: 0 },
        }),
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    const stored = await db().query(`SELECT error FROM checks.batches WHERE id = $1`, [batch.batch_id]);
    expect(stored.rows[0].error).toMatch(/no file was uploaded/);
  });

  it('fails a batch whose uploaded file is over CHECKS_BATCH_MAX_FILE_BYTES (a presigned PUT cannot bound it)', async () => {
    const { batch, file_upload_link } = await newBatch();
    expect((await upload(file_upload_link, Buffer.alloc(MAX_FILE_BYTES + 1, 1))).status).toBe(200);
    expect((await api.post(`/v1/batches/${batch.batch_id}/start`)).status).toBe(200);
    await eventually(async () => expect(await batchOf(batch.batch_id)).toMatchObject({ status: 'failed' }), {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    const stored = await db().query(`SELECT error FROM checks.batches WHERE id = $1`, [batch.batch_id]);
    expect(stored.rows[0].error).toMatch(/larger than 65536 bytes/);
    expect(
      (await db().query(`SELECT count(*)::int AS n FROM checks.batch_rows WHERE batch_id = $1`, [batch.batch_id]))
        .rows[0].n,
    ).toBe(0);
  });
});
