import { ApiClient, createTenant, db } from '@kyc/testing';

import {
  account,
  api,
  clock,
  demoFlow,
  expectError,
  flowId,
  formStep,
  identity,
  newProcess,
  useProcessesSuite,
} from './support/processes-fixture';

describe('identity: flows, web keys and the enqueue log', () => {
  useProcessesSuite();

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

    it.each([
      ['api_key_version', { key_type: 'backend', key_name: 'x', version: 1, api_key_version: true }],
      ['api_key_version', { key_type: 'backend', key_name: 'x', api_key_version: ['1'] }],
      ['version', { key_type: 'backend', key_name: 'x', version: '1' }],
      ['emails', { key_type: 'web', grant: 'signals', emails: 'ana@example.com' }],
    ])(
      'in JSON, refuses a %s of the wrong type (a form sends text and repeats fields; JSON sends the value)',
      async (field, body) => {
        const before = (await api.get('/v1/api-keys')).body.api_keys.length;
        expectError(await api.postJson('/v1/api-keys', body), 400, undefined, field);
        expect((await api.get('/v1/api-keys')).body.api_keys.length).toBe(before);
      },
    );

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

    it("refuses a process_id that is not the caller's (another tenant's, or for a web key another process) and logs nothing", async () => {
      const other = await createTenant(account.url, [identity.url]);
      const otherApi = new ApiClient(identity.url, other.apiKey);
      const flow = await otherApi.postJson('/v1/flows', demoFlow);
      const key = await otherApi.post('/v1/api-keys', {
        key_type: 'web',
        grant: 'digital-identity',
        flow_id: flow.body.flow_id,
        country: 'CO',
        redirect_url: 'https://example.test/done',
      });
      const theirs = await otherApi.withKey(key.body.api_key).post('/v1/processes');
      expect(theirs.status).toBe(201);
      const mine = await newProcess();
      const sibling = await newProcess();

      const attempts = [
        api.post('/v1/processes/enqueue-log', { process_id: theirs.body.process_id, message: 'forged' }),
        api
          .withKey(mine.key)
          .post('/v1/processes/enqueue-log', { process_id: theirs.body.process_id, message: 'forged' }),
        api.withKey(mine.key).post('/v1/processes/enqueue-log', { process_id: sibling.id, message: 'forged' }),
        // A web key reads only the process it created.
        api.withKey(mine.key).get(`/v1/processes/${sibling.id}`),
        api.withKey(mine.key).get(`/v1/processes/${sibling.id}/result`),
      ];
      for (const res of await Promise.all(attempts)) expectError(res, 404, 'process_not_found');
      const logged = await db().query(`SELECT count(*)::int AS n FROM identity.process_logs WHERE message = 'forged'`);
      expect(logged.rows[0].n).toBe(0);
    });

    it("lists a process's entries newest first, paged, to backend keys of its tenant only", async () => {
      const { key, id } = await newProcess();
      for (const message of ['first', 'second', 'third']) {
        clock.advance(1000); // the suite's clock stands still: entries a second apart
        expect((await api.withKey(key).post('/v1/processes/enqueue-log', { process_id: id, message })).status).toBe(
          201,
        );
      }
      const page1 = await api.get(`/v1/processes/${id}/logs?limit=2`);
      expect(page1.status).toBe(200);
      expect(page1.body.logs.map((l: { message: string }) => l.message)).toEqual(['third', 'second']);
      expect(page1.body.logs[0]).toMatchObject({
        log_id: expect.stringMatching(/^LOG/),
        process_id: id,
        level: 'info',
      });
      const page2 = await api.get(new URL(page1.body.next).pathname + new URL(page1.body.next).search);
      expect(page2.body.logs.map((l: { message: string }) => l.message)).toEqual(['first']);
      expect(page2.body.next).toBeUndefined();
      const other = await createTenant(account.url, [identity.url]);
      expectError(
        await new ApiClient(identity.url, other.apiKey).get(`/v1/processes/${id}/logs`),
        404,
        'process_not_found',
      );
      expectError(await api.withKey(key).get(`/v1/processes/${id}/logs`), 403, 'key_type_not_allowed');
      expectError(await api.get(`/v1/processes/${id}/logs?start_key=nope`), 400, undefined, 'start_key');
    });
  });
});
