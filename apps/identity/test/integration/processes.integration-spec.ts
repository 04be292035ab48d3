import { randomUUID } from 'node:crypto';

import { JobQueueService, ManualClock } from '@kyc/platform';
import {
  ApiClient,
  closeDb,
  createTenant,
  eventually,
  freePort,
  startInProcess,
  startProcess,
  testKafka,
  TestTenant,
} from '@kyc/testing';
import { Consumer } from 'kafkajs';

import { identityService } from '../../src/app.module';

const formStep = {
  type: 'form',
  fields: [
    { name: 'first_name', label: 'First name' },
    { name: 'last_name', label: 'Last name' },
    { name: 'nickname', label: 'Nickname', required: false },
  ],
};
const demoFlow = {
  name: 'Onboarding',
  redirect_url: 'https://example.test/done',
  timeout_seconds: 600,
  steps: [formStep, { type: 'email', validator_settings: { otp_length: 6 } }],
};

/** Expects the error envelope with a status (and error_code / offending field when given). */
function expectError(res: { status: number; body: any }, status: number, errorCode?: string, field?: string) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code: status });
  if (errorCode) expect(res.body.error_code).toBe(errorCode);
  if (field) expect((res.body.fields ?? []).map((f: { field: string }) => f.field)).toContain(field);
}

async function collectTopic(topic: string) {
  const consumer: Consumer = testKafka().consumer({ groupId: `test-${randomUUID()}` });
  const messages: { key: string; value: any }[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: ({ message }) => {
      messages.push({ key: message.key?.toString() ?? '', value: JSON.parse(message.value?.toString() ?? 'null') });
      return Promise.resolve();
    },
  });
  return { messages, stop: () => consumer.disconnect() };
}

describe('identity: flows, web keys and processes', () => {
  const clock = new ManualClock(new Date());
  let account: Awaited<ReturnType<typeof startProcess>>;
  let identity: Awaited<ReturnType<typeof startInProcess>>;
  let tenant: TestTenant;
  let api: ApiClient;
  let flowId: string;
  let created: Awaited<ReturnType<typeof collectTopic>>;
  let finished: Awaited<ReturnType<typeof collectTopic>>;

  const webKey = async (extra: Record<string, string> = {}) => {
    const res = await api.post('/v1/api-keys', {
      key_type: 'web',
      grant: 'digital-identity',
      flow_id: flowId,
      country: 'CO',
      redirect_url: 'https://example.test/done',
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body.api_key as string;
  };
  const newProcess = async (extra: Record<string, string> = {}) => {
    const key = await webKey(extra);
    const res = await api.withKey(key).post('/v1/processes');
    expect(res.status).toBe(201);
    return { key, id: res.body.process_id as string, body: res.body };
  };
  const drain = () => identity.app.get(JobQueueService).drain();

  beforeAll(async () => {
    [account, identity] = await Promise.all([
      freePort().then((port) =>
        startProcess('account', port, { KAFKA_CONSUMER_GROUP: `account-${randomUUID().slice(0, 8)}` }),
      ),
      startInProcess('identity', identityService, { JOBS_POLL_MS: '100' }, { clock }),
    ]);
    tenant = await createTenant(account.url, [identity.url]);
    api = new ApiClient(identity.url, tenant.apiKey);
    [created, finished] = await Promise.all([
      collectTopic('identity.process.created'),
      collectTopic('identity.process.finished'),
    ]);
    const flow = await api.postJson('/v1/flows', demoFlow);
    expect(flow.status).toBe(201);
    flowId = flow.body.flow_id;
  });

  afterAll(async () => {
    await Promise.all([created?.stop(), finished?.stop()]);
    await Promise.all([identity?.close(), account?.close()]);
    await closeDb();
  });

  describe('flows', () => {
    it('creates, reads, lists, updates and deletes a flow', async () => {
      const res = await api.postJson('/v1/flows', { ...demoFlow, name: 'temp' });
      expect(res.body).toMatchObject({
        name: 'temp',
        timeout_seconds: 600,
        steps: [
          {
            step_id: 'step-1',
            type: 'form',
            fields: [{ name: 'first_name', required: true }, {}, { required: false }],
          },
          { step_id: 'step-2', type: 'email', validator_settings: { otp_length: 6 } },
        ],
      });
      const id = res.body.flow_id;
      expect((await api.get(`/v1/flows/${id}`)).body.name).toBe('temp');
      expect((await api.get('/v1/flows')).body.flows.map((f: any) => f.flow_id)).toContain(id);
      const upd = await api.request(
        'PUT',
        `/v1/flows/${id}`,
        { ...demoFlow, name: 'renamed', steps: [formStep] },
        {
          'content-type': 'application/json',
        },
      );
      expect(upd.body).toMatchObject({ name: 'renamed', steps: [{ type: 'form' }] });
      expect((await api.delete(`/v1/flows/${id}`)).status).toBe(200);
      expectError(await api.get(`/v1/flows/${id}`), 404, 'flow_not_found');
    });

    it.each([
      ['name', { ...demoFlow, name: undefined }],
      ['steps', { ...demoFlow, steps: [] }],
      ['steps.0.type', { ...demoFlow, steps: [{ type: 'voice' }] }],
      ['steps.0.fields', { ...demoFlow, steps: [{ type: 'form' }] }],
      [
        'steps.0.fields.0.name',
        { ...demoFlow, steps: [{ type: 'form', fields: [{ name: 'First Name', label: 'x' }] }] },
      ],
      ['steps.0.validator_settings', { ...demoFlow, steps: [{ ...formStep, validator_settings: {} }] }],
      ['steps.0.fields', { ...demoFlow, steps: [{ type: 'document', fields: formStep.fields }] }],
      ['redirect_url', { ...demoFlow, redirect_url: 'javascript:alert(1)' }],
      ['timeout_seconds', { ...demoFlow, timeout_seconds: 10 }],
    ])('refuses a flow with a bad %s and stores nothing', async (field, body) => {
      const before = (await api.get('/v1/flows')).body.flows.length;
      expectError(await api.postJson('/v1/flows', body), 400, undefined, field);
      expect((await api.get('/v1/flows')).body.flows.length).toBe(before);
    });
  });

  describe('API keys', () => {
    it('issues a web key bound to a flow, lists and revokes it', async () => {
      const res = await api.post('/v1/api-keys', {
        key_type: 'web',
        grant: 'digital-identity',
        flow_id: flowId,
        country: 'ALL',
        redirect_url: 'https://example.test/done',
        account_id: 'acc_1.x-y',
        emails: 'ana@example.test',
        phone: '+573001234567',
        document_type: 'national-id',
        api_key_version: 1,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        key_type: 'web',
        grant: 'digital-identity',
        flow_id: flowId,
        account_id: 'acc_1.x-y',
        emails: ['ana@example.test'],
        phone: ['+573001234567'],
        api_key_version: 1,
        expiration_date: expect.any(String),
      });
      const list = await api.get('/v1/api-keys');
      expect(list.body.api_keys.map((k: any) => k.key_id)).toContain(res.body.key_id);
      expect((await api.delete(`/v1/api-keys/${res.body.key_id}`)).body.revocation_date).toEqual(expect.any(String));
    });

    it.each([
      ['key_type', { key_type: 'mobile', key_name: 'x' }],
      ['name', { key_type: 'backend' }],
      ['grant', { key_type: 'web' }],
      ['grant', { key_type: 'sdk', grant: 'everything' }],
      ['flow', { key_type: 'web', grant: 'digital-identity', country: 'CO', redirect_url: 'https://x.test' }],
      ['country', { key_type: 'web', grant: 'digital-identity', flow_id: 'f', redirect_url: 'https://x.test' }],
      [
        'country',
        { key_type: 'web', grant: 'digital-identity', flow_id: 'f', country: 'US', redirect_url: 'https://x.test' },
      ],
      ['redirect_url', { key_type: 'web', grant: 'digital-identity', flow_id: 'f', country: 'CO' }],
      ['account_id', { key_type: 'web', grant: 'signals', account_id: 'a b' }],
      ['emails', { key_type: 'web', grant: 'signals', emails: 'not-an-email' }],
      ['phone', { key_type: 'web', grant: 'signals', phone: '3001234567' }],
      ['document_type', { key_type: 'web', grant: 'signals', document_type: 'visa' }],
      ['version', { key_type: 'backend', key_name: 'x', version: 3 }],
    ])('refuses a key with a bad %s and issues nothing', async (field, body) => {
      const before = (await api.get('/v1/api-keys')).body.api_keys.length;
      expectError(await api.post('/v1/api-keys', body), 400, undefined, field);
      expect((await api.get('/v1/api-keys')).body.api_keys.length).toBe(before);
    });

    it('refuses a digital-identity key for an unknown flow', async () => {
      expectError(
        await api.post('/v1/api-keys', {
          key_type: 'web',
          grant: 'digital-identity',
          flow_id: 'IDFnope',
          country: 'CO',
          redirect_url: 'https://x.test',
        }),
        404,
        'flow_not_found',
      );
    });
  });

  describe('processes', () => {
    it('creates a process with the temporary key: one key, one process', async () => {
      const { key, id, body } = await newProcess({ account_id: 'acc-42' });
      expect(body).toMatchObject({ process_id: id, flow_id: flowId, account_id: 'acc-42', status: 'pending' });
      expectError(await api.withKey(key).post('/v1/processes'), 409, 'key_already_used');
      expectError(await api.post('/v1/processes'), 403, 'web_key_required');
      await eventually(async () =>
        expect(created.messages.map((m) => m.value.payload.process.process_id)).toContain(id),
      );
    });

    it('walks the steps: form inputs validated, then the e-mail step awaits its validation', async () => {
      const { key, id } = await newProcess();
      const p = (await api.get(`/v1/processes/${id}`)).body;
      expect(p.current_step).toBe(0);
      expect(p.steps.map((s: any) => [s.type, s.status, s.expected_inputs])).toEqual([
        ['form', 'pending', ['first_name', 'last_name', 'nickname']],
        ['email', 'pending', ['email']],
      ]);
      const [form, email] = p.steps;
      const web = api.withKey(key);
      const submit = (body: unknown) => web.postJson(`/v1/processes/${id}`, body);
      const input = { step_id: form.step_id, verification_id: form.verification_id, type: 'form' };
      expectError(await submit({ ...input, step_id: email.step_id }), 400, 'wrong_step', 'step_id');
      expectError(await submit({ ...input, verification_id: 'VERx' }), 400, 'wrong_step', 'verification_id');
      expectError(await submit({ ...input, type: 'voice' }), 400, undefined, 'type');
      expectError(
        await submit({ ...input, expected_inputs: [{ name: 'first_name', value: 'Ana' }] }),
        400,
        'wrong_step',
        'expected_inputs.last_name',
      );
      expectError(
        await submit({
          ...input,
          expected_inputs: [
            { name: 'first_name', value: 'Ana' },
            { name: 'x', value: '1' },
          ],
        }),
        400,
        'wrong_step',
        'expected_inputs.x',
      );
      expectError(await submit({ ...input, expected_inputs: [{ name: 'first_name' }] }), 400, undefined);
      expect((await api.get(`/v1/processes/${id}`)).body.current_step).toBe(0);
      const ok = await submit({
        ...input,
        expected_inputs: [
          { name: 'first_name', value: 'Ana' },
          { name: 'last_name', value: 'Pérez' },
        ],
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ current_step: 1, steps: [{ status: 'success' }, { status: 'pending' }] });
      expect((await api.get(`/v1/processes/${id}/variables`)).body.variables).toEqual({
        first_name: 'Ana',
        last_name: 'Pérez',
      });
      // Another web key cannot continue the process.
      const other = await webKey();
      expectError(
        await api.withKey(other).postJson(`/v1/processes/${id}`, {
          step_id: email.step_id,
          verification_id: email.verification_id,
          type: 'email',
          expected_inputs: [{ name: 'email', value: 'ana@example.test' }],
        }),
        403,
        'not_process_key',
      );
      const mail = await submit({
        step_id: email.step_id,
        verification_id: email.verification_id,
        type: 'email',
        expected_inputs: [{ name: 'email', value: 'ana@example.test' }],
      });
      expect(mail.body.steps[1].status).toBe('awaiting_validation');
      expect((await api.get(`/v1/processes/${id}/result`)).body).toMatchObject({ process_id: id, status: 'pending' });
    });

    it('goes back with and without retry_step', async () => {
      const { key, id, body } = await newProcess();
      const web = api.withKey(key);
      expectError(await web.post(`/v1/processes/${id}/back`), 409, 'no_step_back');
      const [form] = body.steps;
      await web.postJson(`/v1/processes/${id}`, {
        step_id: form.step_id,
        verification_id: form.verification_id,
        type: 'form',
        expected_inputs: [
          { name: 'first_name', value: 'Ana' },
          { name: 'last_name', value: 'P' },
        ],
      });
      expectError(await web.post(`/v1/processes/${id}/back`, { retry_step: 'maybe' }), 400, undefined, 'retry_step');
      const retried = await web.post(`/v1/processes/${id}/back`, { retry_step: 'true' });
      expect(retried.body).toMatchObject({
        current_step: 0,
        steps: [{ status: 'pending', verification_id: form.verification_id }, { status: 'pending' }],
      });
      await web.postJson(`/v1/processes/${id}`, {
        step_id: form.step_id,
        verification_id: form.verification_id,
        type: 'form',
        expected_inputs: [
          { name: 'first_name', value: 'Ana' },
          { name: 'last_name', value: 'P' },
        ],
      });
      const back = await web.post(`/v1/processes/${id}/back`);
      expect(back.body.current_step).toBe(0);
      expect(back.body.steps[0].verification_id).not.toBe(form.verification_id);
    });

    it('changes phone and device information, refusing bad values', async () => {
      const { key, id } = await newProcess();
      const web = api.withKey(key);
      expectError(await web.put(`/v1/processes/${id}`, { phone_number: '3001234567' }), 400, undefined, 'phone_number');
      expectError(await web.put(`/v1/processes/${id}`, { device_info: '{not json' }), 400, undefined, 'device_info');
      const ok = await web.put(`/v1/processes/${id}`, {
        phone_number: '+573001234567',
        device_info: '{"os":"android"}',
      });
      expect(ok.body).toMatchObject({ phone_number: '+573001234567', device_info: '{"os":"android"}' });
    });

    it('lists with filters and refuses bad filters', async () => {
      const { id } = await newProcess({ account_id: 'searchable-account-77' });
      const list = (q: string) => api.get(`/v1/processes${q}`);
      expect((await list(`?search=${id}`)).body.processes.map((p: any) => p.process_id)).toEqual([id]);
      expect((await list(`?search=${id.slice(0, 10)}`)).body.processes).toEqual([]);
      expect((await list('?search=account-77')).body.processes.map((p: any) => p.process_id)).toEqual([id]);
      expect((await list('?status=success')).body.processes).toEqual([]);
      const now = clock.now();
      const start = new Date(now.getTime() - 3600_000).toISOString();
      const end = new Date(now.getTime() + 3600_000).toISOString();
      const ranged = await list(`?start_date=${encodeURIComponent(start)}&end_date=${encodeURIComponent(end)}`);
      expect(ranged.body.processes.length).toBeGreaterThan(0);
      expect(ranged.body.processes.length).toBeLessThanOrEqual(20);
      expectError(await list(`?start_date=${encodeURIComponent(start)}`), 400, undefined, 'end_date');
      expectError(await list(`?end_date=${encodeURIComponent(end)}`), 400, undefined, 'start_date');
      expectError(
        await list('?start_date=2026-01-01T00:00:00&end_date=2026-01-02T00:00:00'),
        400,
        undefined,
        'start_date',
      );
      expectError(
        await list(
          `?start_date=${encodeURIComponent('2026-01-01T00:00:00-05:00')}&end_date=${encodeURIComponent('2026-03-02T00:00:00-05:00')}`,
        ),
        400,
        undefined,
        'end_date',
      );
      expectError(await list('?status=done'), 400, undefined, 'status');
    });

    it('at the timeout grants 5 more minutes up to 3 times while a validation is unfinished, then fails expired', async () => {
      const { key, id, body } = await newProcess();
      const web = api.withKey(key);
      const [form, email] = body.steps;
      await web.postJson(`/v1/processes/${id}`, {
        step_id: form.step_id,
        verification_id: form.verification_id,
        type: 'form',
        expected_inputs: [
          { name: 'first_name', value: 'Ana' },
          { name: 'last_name', value: 'P' },
        ],
      });
      await web.postJson(`/v1/processes/${id}`, {
        step_id: email.step_id,
        verification_id: email.verification_id,
        type: 'email',
        expected_inputs: [{ name: 'email', value: 'ana@example.test' }],
      });
      expectError(await api.postJson(`/v1/processes/${id}/override-status`, { override_status: 'success' }), 409);
      clock.advance(601_000);
      for (let grace = 1; grace <= 3; grace++) {
        await drain();
        expect((await api.get(`/v1/processes/${id}`)).body).toMatchObject({
          status: 'pending',
          timeout_attempts: grace,
        });
        clock.advance(5 * 60_000 + 1000);
      }
      await drain();
      const failed = (await api.get(`/v1/processes/${id}/result`)).body;
      expect(failed).toMatchObject({
        status: 'failure',
        failure_status: 'expired',
        expired_reason: 'validation_not_finished',
      });
      await eventually(async () =>
        expect(
          finished.messages.find((m) => m.value.payload.process.process_id === id)?.value.payload.process,
        ).toMatchObject({
          status: 'failure',
        }),
      );
      // Authorized override, with its history.
      expectError(await api.postJson(`/v1/processes/${id}/override-status`, { override_status: 'pending' }), 400);
      await api.postJson(`/v1/processes/${id}/override-status`, {
        override_status: 'success',
        reason: 'checked by hand',
      });
      const over = (await api.postJson(`/v1/processes/${id}/override-status`, { override_status: 'failure' })).body;
      expect(over).toMatchObject({ status: 'failure', override_status: 'failure' });
      expect(over.override_status_history.map((h: any) => [h.previous, h.override_status])).toEqual([
        [null, 'success'],
        ['success', 'failure'],
      ]);
      expectError(await web.post(`/v1/processes/${id}/back`), 409, 'process_finished');
    });

    it('a process without validators that times out fails at once', async () => {
      const { id } = await newProcess();
      clock.advance(601_000);
      await drain();
      expect((await api.get(`/v1/processes/${id}`)).body).toMatchObject({
        status: 'failure',
        failure_status: 'expired',
        expired_reason: 'process_timeout',
        timeout_attempts: 0,
      });
    });

    it('appends dynamic verifications and deletes a process', async () => {
      const { key, id } = await newProcess();
      const web = api.withKey(key);
      expectError(await web.postJson(`/v1/processes/${id}/verifications`, { type: 'voice' }), 400, undefined, 'type');
      const added = await web.postJson(`/v1/processes/${id}/verifications`, { type: 'face' });
      expect(added.body.steps[2]).toMatchObject({ type: 'face', dynamic: true, status: 'pending' });
      expect((await api.delete(`/v1/processes/${id}`)).body).toEqual({ process_id: id, deleted: true });
      expectError(await api.get(`/v1/processes/${id}`), 404, 'process_not_found');
    });
  });
  describe('enqueue-log', () => {
    it('creates a log entry, refusing a missing message or an unknown level', async () => {
      const { key, id } = await newProcess();
      const res = await api
        .withKey(key)
        .post('/v1/processes/enqueue-log', { process_id: id, level: 'warn', message: 'camera denied' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ log_id: expect.stringMatching(/^LOG/), process_id: id, level: 'warn' });
      expectError(await api.post('/v1/processes/enqueue-log', { level: 'warn' }), 400, undefined, 'message');
      expectError(
        await api.post('/v1/processes/enqueue-log', { message: 'x', level: 'fatal' }),
        400,
        undefined,
        'level',
      );
    });
  });
});
