import { randomUUID } from 'node:crypto';

import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  freePort,
  putJsonUnpooled,
  startInProcess,
  startProcess,
  startSmtpSink,
  testKafka,
  TestTenant,
} from '@kyc/testing';

import { identityService } from '../../src/app.module';
import { boxBlur, decodeFixture, encodeJpeg } from './support/fake-camera';
import { fixture } from './support/page-stack';
import { DOCUMENT_INPUTS, processOf, stepWithValidation, submitStep } from './support/process-steps';

/**
 * Validator steps run in the validations service (started from dist/, used over HTTP): a document
 * step creates its validation there, and the process advances on validations.validation.finished.
 */
describe('identity: validator steps through the validations service', () => {
  let account: Awaited<ReturnType<typeof startProcess>>;
  let validations: Awaited<ReturnType<typeof startProcess>>;
  let identity: Awaited<ReturnType<typeof startInProcess>>;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let tenant: TestTenant;
  let api: ApiClient;
  let flowId: string;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    const [accountPort, validationsPort] = await Promise.all([freePort(), freePort()]);
    [account, validations, identity] = await Promise.all([
      startProcess('account', accountPort, { KAFKA_CONSUMER_GROUP: `account-${randomUUID().slice(0, 8)}` }),
      startProcess('validations', validationsPort, {
        VALIDATIONS_SMTP_URL: smtp.url,
        VALIDATIONS_SECRET_KEY: 'integration-test-secret-key',
        KAFKA_CONSUMER_GROUP: `validations-${randomUUID().slice(0, 8)}`,
      }),
      startInProcess('identity', identityService, {
        JOBS_POLL_MS: '100',
        IDENTITY_VALIDATIONS_URL: `http://127.0.0.1:${validationsPort}`,
      }),
    ]);
    tenant = await createTenant(account.url, [identity.url, validations.url]);
    api = new ApiClient(identity.url, tenant.apiKey);
    const flow = await api.postJson('/v1/flows', {
      name: 'Document only',
      timeout_seconds: 3600,
      steps: [{ type: 'document' }],
    });
    expect(flow.status).toBe(201);
    flowId = flow.body.flow_id;
  });

  afterAll(async () => {
    await Promise.all([identity?.close(), validations?.close(), account?.close()]);
    await smtp?.close();
    await closeDb();
  });

  async function documentStepCreated() {
    const { id, web, body } = await processOf(api, flowId);
    const [step] = body.steps;
    expect(step.expected_inputs).toEqual(['country', 'document_type']);
    const sent = await submitStep(web, id, step, DOCUMENT_INPUTS);
    expect(sent.body.steps[0].status).toBe('awaiting_validation');
    const withValidation = await stepWithValidation(web, id);
    return { id, validationId: withValidation.validation_id as string, step: withValidation, web };
  }

  async function publishFinished(processId: string, validationId: string, status: string, declined?: string) {
    const producer = testKafka().producer();
    await producer.connect();
    const value = JSON.stringify({
      id: randomUUID(),
      type: 'validations.validation.finished',
      version: 1,
      tenant_id: tenant.tenantId,
      occurred_at: new Date().toISOString(),
      aggregate_id: validationId,
      payload: {
        validation: {
          validation_id: validationId,
          tenant_id: tenant.tenantId,
          account_id: 'acc',
          type: 'document-validation',
          validation_status: status,
          ...(declined ? { failure_status: 'declined', declined_reason: declined } : {}),
          manual_review_status: 'not_required',
          process_id: processId,
          flow_id: flowId,
          creation_date: new Date().toISOString(),
          update_date: new Date().toISOString(),
        },
        subvalidations: [],
      },
    });
    // The same event twice: the consumer is idempotent.
    await producer.send({
      topic: 'validations.validation.finished',
      messages: [
        { key: validationId, value },
        { key: validationId, value },
      ],
    });
    await producer.disconnect();
  }

  it('creates the validation in the validations service with the upload instructions', async () => {
    const { validationId, step, id } = await documentStepCreated();
    const v = await new ApiClient(validations.url, tenant.apiKey).get(`/v1/validations/${validationId}`);
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({
      validation_id: validationId,
      type: 'document-validation',
      validation_status: 'pending',
    });
    expect(step.instructions).toBeDefined();
    expect((await api.get(`/v1/processes/${id}/validations`)).body.validations).toEqual([
      expect.objectContaining({ validation_id: validationId, validation_status: 'awaiting_validation' }),
    ]);
  });

  it('succeeds when the validation succeeds, fails with the reason when it is declined', async () => {
    const ok = await documentStepCreated();
    await publishFinished(ok.id, ok.validationId, 'success');
    await eventually(async () =>
      expect((await api.get(`/v1/processes/${ok.id}/result`)).body).toMatchObject({ status: 'success' }),
    );
    const ko = await documentStepCreated();
    await publishFinished(ko.id, ko.validationId, 'failure', 'face_mismatch');
    await eventually(async () =>
      expect((await api.get(`/v1/processes/${ko.id}/result`)).body).toMatchObject({
        status: 'failure',
        failure_status: 'declined',
        declined_reason: 'face_mismatch',
      }),
    );
  });

  it('redoes a validator step after POST /back with retry_step: same verification, a new validation', async () => {
    const flow = await api.postJson('/v1/flows', {
      name: 'Document then form',
      timeout_seconds: 3600,
      steps: [{ type: 'document' }, { type: 'form', fields: [{ name: 'nickname', label: 'Nickname' }] }],
    });
    expect(flow.status).toBe(201);
    const { web, id } = await processOf(api, flow.body.flow_id);
    const submitDocument = (verificationId: string) =>
      submitStep(web, id, { step_id: 'step-1', verification_id: verificationId, type: 'document' }, DOCUMENT_INPUTS);
    const validationOf = async () => (await stepWithValidation(web, id)).validation_id as string;
    const first = (await web.get(`/v1/processes/${id}`)).body.steps[0];
    expect((await submitDocument(first.verification_id)).status).toBe(200);
    const firstValidation = await validationOf();
    await publishFinished(id, firstValidation, 'success');
    await eventually(async () => expect((await web.get(`/v1/processes/${id}`)).body.current_step).toBe(1));

    const back = await web.post(`/v1/processes/${id}/back`, { retry_step: 'true' });
    expect(back.status).toBe(200);
    expect(back.body.steps[0]).toMatchObject({ status: 'pending', verification_id: first.verification_id });
    expect(back.body.steps[0].validation_id).toBeUndefined();
    expect((await submitDocument(first.verification_id)).status).toBe(200);
    const second = await validationOf();
    expect(second).not.toBe(firstValidation);
    const v = await new ApiClient(validations.url, tenant.apiKey).get(`/v1/validations/${second}`);
    expect(v.body).toMatchObject({ validation_id: second, validation_status: 'pending' });
  });

  it('a document the engine cannot read goes back to capture while the flow allows a retry (a new validation retrying the failed one), then fails the process', async () => {
    const flow = await api.postJson('/v1/flows', {
      name: 'Document with one retry',
      timeout_seconds: 3600,
      steps: [{ type: 'document', validator_settings: { allowed_retries: 1 } }],
    });
    expect(flow.status).toBe(201);
    const { key, web, id, body } = await processOf(api, flow.body.flow_id);
    const [step] = body.steps;
    await submitStep(web, id, step, DOCUMENT_INPUTS);
    // An unfocused camera: both sides blurred, the engine reads no MRZ.
    const blurred = (name: string) => encodeJpeg(boxBlur(decodeFixture(fixture(name)), 8)).toString('base64');
    const uploadBlurred = async (validationId: string) => {
      for (const [slot, name] of [
        ['front', 'id-card-front.jpg'],
        ['reverse', 'id-card-reverse.jpg'],
      ]) {
        const res = await putJsonUnpooled(`${identity.url}/web/processes/${id}/uploads/${slot}`, key, {
          file: blurred(name),
        });
        expect({ slot, status: res.status, validation: res.body.steps?.[0]?.validation_id }).toEqual({
          slot,
          status: 200,
          validation: validationId,
        });
      }
    };
    const first = await eventually(async () => {
      const s = (await web.get(`/v1/processes/${id}`)).body.steps[0];
      if (!s.instructions) throw new Error('no upload links yet');
      return s.validation_id as string;
    });
    await uploadBlurred(first);

    // Back to capture: the same step, open, with a new validation that names the failed one.
    const retried = await eventually(
      async () => {
        const p = (await web.get(`/v1/processes/${id}`)).body;
        expect(p.status).toBe('pending');
        expect(p.steps[0]).toMatchObject({
          status: 'awaiting_validation',
          retry_of_id: first,
          retries_left: 0,
          retry_reason: expect.stringMatching(/^(mrz_not_found|unreadable_document|invalid_mrz_check_digit)$/),
        });
        expect(p.steps[0].instructions).toBeDefined();
        expect(p.steps[0].uploaded).toBeUndefined();
        return p.steps[0];
      },
      { timeoutMs: 120_000 },
    );
    expect(retried.validation_id).not.toBe(first);
    expect(retried.verification_id).toBe(step.verification_id);
    const v = await new ApiClient(validations.url, tenant.apiKey).get(`/v1/validations/${retried.validation_id}`);
    expect(v.body).toMatchObject({ validation_status: 'pending', retry_of_id: first, allowed_retries: 1 });

    // The allowed retry fails too: the step and the process fail with the engine's reason.
    await uploadBlurred(retried.validation_id);
    const result = await eventually(
      async () => {
        const r = (await api.get(`/v1/processes/${id}/result`)).body;
        expect(r.status).toBe('failure');
        return r;
      },
      { timeoutMs: 120_000 },
    );
    expect(result).toMatchObject({ failure_status: 'declined', declined_reason: retried.retry_reason });
    const after = (await web.get(`/v1/processes/${id}`)).body.steps[0];
    expect(after).toMatchObject({ status: 'failure', validation_id: retried.validation_id });
  }, 300_000);

  it('fails the process when the validations service refuses the step (settings it does not accept)', async () => {
    const flow = await api.postJson('/v1/flows', {
      name: 'Bad settings',
      steps: [{ type: 'document', validator_settings: { data_consistency: true } }],
    });
    const { web, id, body } = await processOf(api, flow.body.flow_id);
    await submitStep(web, id, body.steps[0], DOCUMENT_INPUTS);
    await eventually(async () =>
      expect((await api.get(`/v1/processes/${id}/result`)).body).toMatchObject({
        status: 'failure',
        failure_status: 'system_error',
        declined_reason: 'validation_refused',
      }),
    );
  });
  it('an e-mail step proves the address its code went to: identity.process.finished carries it in proofs, never a typed-in variable', async () => {
    const flow = await api.postJson('/v1/flows', {
      name: 'E-mail then form',
      steps: [{ type: 'email' }, { type: 'form', fields: [{ name: 'email', label: 'E-mail' }] }],
    });
    expect(flow.status).toBe(201);
    const { web, id, body } = await processOf(api, flow.body.flow_id);
    const address = `proof.${Date.now()}@example.test`;
    const [emailStep] = body.steps;
    await submitStep(web, id, emailStep, { email: address });
    const mail = await smtp.waitFor((m) => m.recipients.includes(address));
    const code = /\b(\d{6})\b/.exec(mail.text)![1];
    await eventually(async () => {
      const p = (await web.get(`/v1/processes/${id}`)).body;
      expect(p.steps[0].expected_inputs).toEqual(['code']);
    });
    expect((await submitStep(web, id, emailStep, { code })).status).toBe(200);
    // the form then types another address into the same variable
    const form = await eventually(async () => {
      const p = (await web.get(`/v1/processes/${id}`)).body;
      expect(p.steps[0].status).toBe('success');
      return p.steps[1];
    });
    await submitStep(web, id, form, { email: 'someone.else@example.test' });
    const { rows } = await eventually(async () => {
      const r = await db().query(
        `SELECT envelope->'payload' AS payload FROM identity.outbox WHERE topic = 'identity.process.finished' AND message_key = $1`,
        [id],
      );
      expect(r.rows).toHaveLength(1);
      return r;
    });
    expect(rows[0].payload.variables.email).toBe('someone.else@example.test');
    expect(rows[0].payload.proofs).toEqual([
      {
        step_type: 'email',
        validation_id: emailStep.validation_id ?? expect.any(String),
        value: address,
        proven_date: expect.any(String),
      },
    ]);
  }, 60_000);
});
