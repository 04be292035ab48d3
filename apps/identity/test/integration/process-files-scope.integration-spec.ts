import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';

import { JobQueueService } from '@kyc/platform';
import {
  ApiClient,
  closeDb,
  createRoleUser,
  createTenant,
  freePort,
  startInProcess,
  startProcess,
  TestTenant,
} from '@kyc/testing';

import { identityService } from '../../src/app.module';
import { processOf } from './support/process-steps';

/** The text of a PDF (pdftotext from poppler-utils), whitespace collapsed. */
function pdfText(pdf: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('pdftotext', ['-raw', '-enc', 'UTF-8', '-', '-'], (err: Error | null, stdout: string) =>
      err ? reject(err) : resolve(stdout.replace(/\s+/g, ' ')),
    );
    child.stdin!.end(pdf);
  });
}

/** The process PDF (file generation: 202 requested → … → 302 → 200) and the read.own scope. */
describe('identity: process files and identity.process.read.own', () => {
  let account: Awaited<ReturnType<typeof startProcess>>;
  let identity: Awaited<ReturnType<typeof startInProcess>>;
  let tenant: TestTenant;
  let api: ApiClient;
  let flowId: string;

  const processFor = (client: ApiClient) => processOf(client, flowId);
  const raw = (path: string, key = tenant.apiKey) =>
    fetch(`${identity.url}${path}`, { headers: { 'Service-API-Key': key }, redirect: 'manual' });

  beforeAll(async () => {
    [account, identity] = await Promise.all([
      freePort().then((port) =>
        startProcess('account', port, { KAFKA_CONSUMER_GROUP: `account-${randomUUID().slice(0, 8)}` }),
      ),
      startInProcess('identity', identityService, { JOBS_POLL_MS: '100' }),
    ]);
    tenant = await createTenant(account.url, [identity.url]);
    api = new ApiClient(identity.url, tenant.apiKey);
    const flow = await api.postJson('/v1/flows', {
      name: 'Onboarding PDF',
      redirect_url: 'https://example.test/done',
      steps: [
        {
          type: 'form',
          fields: [
            { name: 'first_name', label: 'First name' },
            { name: 'last_name', label: 'Last name' },
          ],
        },
      ],
    });
    expect(flow.status).toBe(201);
    flowId = flow.body.flow_id;
  });

  afterAll(async () => {
    await Promise.all([identity?.close(), account?.close()]);
    await closeDb();
  });

  describe('GET /v1/processes/{id}/pdf', () => {
    it('answers 202 requested, then 302 to the file, whose GET is the PDF of the process', async () => {
      const p = await processFor(api);
      const step = p.body.steps[0];
      const submitted = await p.web.postJson(`/v1/processes/${p.id}`, {
        step_id: step.step_id,
        verification_id: step.verification_id,
        type: 'form',
        expected_inputs: [
          { name: 'first_name', value: 'Ana' },
          { name: 'last_name', value: 'Pérez' },
        ],
      });
      expect(submitted.body.status).toBe('success');

      const first = await raw(`/v1/processes/${p.id}/pdf`);
      expect(first.status).toBe(202);
      expect(await first.json()).toEqual({ process_id: p.id, file_status: 'requested' });
      const again = await raw(`/v1/processes/${p.id}/pdf`);
      expect(again.status).toBe(202);
      expect(['requested', 'in_progress']).toContain(((await again.json()) as { file_status: string }).file_status);

      await identity.app.get(JobQueueService).drain();
      const ready = await raw(`/v1/processes/${p.id}/pdf`);
      expect(ready.status).toBe(302);
      const location = ready.headers.get('location')!;
      expect(location).toMatch(new RegExp(`^/v1/processes/${p.id}/files/FIL[0-9a-f]{32}$`));
      const file = await raw(location);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      const pdf = Buffer.from(await file.arrayBuffer());
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const text = await pdfText(pdf);
      for (const expected of [
        'Identity verification process',
        p.id,
        'Onboarding PDF',
        'Status: success',
        'step-1 (form): success',
        'first_name: Ana',
        'last_name: Pérez',
        'This flow has no validators.',
      ])
        expect(text).toContain(expected);

      // A client that follows redirects gets the file at once; the file is generated once.
      const followed = await fetch(`${identity.url}/v1/processes/${p.id}/pdf`, {
        headers: { 'Service-API-Key': tenant.apiKey },
      });
      expect(followed.status).toBe(200);
      expect(Buffer.from(await followed.arrayBuffer()).equals(pdf)).toBe(true);
    });

    it('answers 404 for an unknown process, a file of another process, and recordings of a flow without video calls', async () => {
      expect((await api.get('/v1/processes/IDPnope/pdf')).body).toMatchObject({
        code: 404,
        error_code: 'process_not_found',
      });
      const p = await processFor(api);
      expect((await api.get(`/v1/processes/${p.id}/files/FIL${'0'.repeat(32)}`)).body).toMatchObject({
        code: 404,
        error_code: 'file_not_found',
      });
      expect((await api.get(`/v1/processes/${p.id}/video-call-recordings`)).body).toMatchObject({
        code: 404,
        error_code: 'file_not_found',
      });
    });

    it('does not show a process of another tenant', async () => {
      const p = await processFor(api);
      const other = await createTenant(account.url, [identity.url]);
      const res = await new ApiClient(identity.url, other.apiKey).get(`/v1/processes/${p.id}/pdf`);
      expect(res.status).toBe(404);
    });
  });

  describe('POST /v1/processes/feed-wallet', () => {
    const finished = async () => {
      const p = await processFor(api);
      const step = p.body.steps[0];
      const res = await p.web.postJson(`/v1/processes/${p.id}`, {
        step_id: step.step_id,
        verification_id: step.verification_id,
        type: 'form',
        expected_inputs: [
          { name: 'first_name', value: 'Ana' },
          { name: 'last_name', value: 'Pérez' },
        ],
      });
      expect(res.body.status).toBe('success');
      return p;
    };

    it.each([
      ['missing', {}],
      ['empty', { code: '' }],
      ['not a string', { code: 5 }],
      ['with spaces', { code: 'a b' }],
      ['too long', { code: 'x'.repeat(2049) }],
    ])('refuses a code %s (400)', async (_case, body) => {
      const p = await finished();
      const res = await p.web.postJson('/v1/processes/feed-wallet', body);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain('code');
    });

    it('needs the web key of a successful process, and a configured wallet', async () => {
      expect((await api.postJson('/v1/processes/feed-wallet', { code: 'abc' })).body).toMatchObject({
        code: 403,
        error_code: 'web_key_required',
      });
      const key = await api.post('/v1/api-keys', {
        key_type: 'web',
        grant: 'digital-identity',
        flow_id: flowId,
        country: 'CO',
        redirect_url: 'https://example.test/done',
      });
      expect(
        (await api.withKey(key.body.api_key).postJson('/v1/processes/feed-wallet', { code: 'abc' })).body,
      ).toMatchObject({
        code: 404,
        error_code: 'process_not_found',
      });
      const pending = await processFor(api);
      expect((await pending.web.postJson('/v1/processes/feed-wallet', { code: 'abc' })).body).toMatchObject({
        code: 409,
        error_code: 'process_not_finished',
      });
      // This identity has no IDENTITY_PASS_URL.
      const done = await finished();
      expect((await done.web.postJson('/v1/processes/feed-wallet', { code: 'abc' })).body).toMatchObject({
        code: 503,
        error_code: 'service_unavailable',
      });
    });
  });

  describe('identity.process.read.own', () => {
    it('a user holding it lists and reads only the processes it started', async () => {
      const own = await createRoleUser(
        account.url,
        tenant,
        { name: `own_${randomUUID().slice(0, 6)}`, permissions: ['identity.process.read.own', 'svc.keys'] },
        [identity.url],
      );
      const ownApi = new ApiClient(identity.url, own.apiKey);
      const mine = await processFor(ownApi);
      const theirs = await processFor(api);

      const listed = (await ownApi.get('/v1/processes')).body.processes.map(
        (p: { process_id: string }) => p.process_id,
      );
      expect(listed).toEqual([mine.id]);
      expect((await ownApi.get(`/v1/processes/${mine.id}`)).status).toBe(200);
      expect((await ownApi.get(`/v1/processes/${mine.id}/result`)).status).toBe(200);
      for (const path of [`/v1/processes/${theirs.id}`, `/v1/processes/${theirs.id}/result`])
        expect((await ownApi.get(path)).body).toMatchObject({ code: 404, error_code: 'process_not_found' });

      // Without the permission (the tenant's admin) every process is visible.
      const all = (await api.get('/v1/processes')).body.processes.map((p: { process_id: string }) => p.process_id);
      expect(all).toEqual(expect.arrayContaining([mine.id, theirs.id]));
      expect((await api.get(`/v1/processes/${mine.id}`)).status).toBe(200);
    });

    it('is a permission of the account, and the built-in roles do not hold it', async () => {
      const admin = new ApiClient(account.url, tenant.apiKey);
      expect((await admin.get('/v1/permissions')).body.permissions).toContain('identity.process.read.own');
      expect((await admin.get('/v1/roles/full_access')).body.role.permissions).not.toContain(
        'identity.process.read.own',
      );
    });
  });
});
