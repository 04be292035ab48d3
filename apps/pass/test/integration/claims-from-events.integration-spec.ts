import { randomUUID } from 'node:crypto';

import { ApiClient, closeDb, db, eventually, testKafka } from '@kyc/testing';
import type { Producer } from 'kafkajs';

import { PassFixture, registerApplication, seedUser, startPass, TestApplication } from './support/pass-fixture';

const id = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, '')}`;

/**
 * The claim store built from the identity and validations services' events, published on their topics as
 * those services publish them: a person verified by an identity process (that proved their e-mail, with
 * document and face validations) signs in through CIBA on the phone they proved in pass and userinfo serves
 * the verified claims. The cross-tenant rules are in claims-provenance.integration-spec.ts.
 */
describe('pass: claims from identity.process.finished and validations.validation.finished', () => {
  let f: PassFixture;
  let app: TestApplication;
  let client: ApiClient;
  let producer: Producer;
  const tenantId = `tenant${Date.now()}`;

  const envelope = (topic: string, aggregateId: string, payload: unknown, eventId = randomUUID()) => ({
    id: eventId,
    type: topic,
    version: 1,
    tenant_id: tenantId,
    occurred_at: new Date().toISOString(),
    aggregate_id: aggregateId,
    payload,
  });
  const send = async (e: ReturnType<typeof envelope>) =>
    producer.send({ topic: e.type, messages: [{ key: e.aggregate_id, value: JSON.stringify(e) }] });
  const validationFinished = (
    accountId: string,
    type: string,
    subvalidations: unknown[] = [],
    over: Record<string, unknown> = {},
  ) => {
    const validationId = id('VLD');
    const now = new Date().toISOString();
    return envelope('validations.validation.finished', validationId, {
      validation: {
        validation_id: validationId,
        tenant_id: tenantId,
        account_id: accountId,
        type,
        validation_status: 'success',
        manual_review_status: 'not_required',
        creation_date: now,
        update_date: now,
        finished_date: now,
        ...over,
      },
      subvalidations,
    });
  };
  /** What the process proved (identity.process.finished `proofs`): its steps that passed, with their validation. */
  const proof = (step_type: string, validation: ReturnType<typeof validationFinished> | string, value?: string) => ({
    step_type,
    validation_id:
      typeof validation === 'string'
        ? validation
        : (validation.payload as { validation: { validation_id: string } }).validation.validation_id,
    ...(value ? { value } : {}),
    proven_date: new Date().toISOString(),
  });
  const processFinished = (
    accountId: string,
    variables: Record<string, string>,
    status = 'success',
    proofs: ReturnType<typeof proof>[] = [],
    processId = id('IDP'),
  ) => {
    const now = new Date().toISOString();
    return envelope('identity.process.finished', processId, {
      process: {
        process_id: processId,
        tenant_id: tenantId,
        flow_id: id('IPF'),
        account_id: accountId,
        user_id: 'user-1',
        status,
        creation_date: now,
        update_date: now,
        finished_date: now,
      },
      variables,
      proofs,
    });
  };
  /** A person who proved their phone in pass (the operator's seed: the CIBA channel), nothing else. */
  const personWithPhone = async (email: string, phone: string) => {
    const res = await f.operator.request(
      'PUT',
      '/v1/admin/users',
      { email, phone_number: phone, phone_verified: true },
      { 'content-type': 'application/json' },
    );
    expect(res.status).toBe(200);
  };

  /** CIBA sign-in on the person's phone (only a person with a verified phone gets the link). */
  const tokensFor = async (email: string, phone: string, scope: string) => {
    const started = await client.post('/v1/oauth2/bc-authorize', {
      client_id: app.client_id,
      client_secret: app.client_secret,
      login_hint: email,
      scope,
      binding_message: 'Share my identity with Acme',
    });
    expect(started.status).toBe(200);
    const messages = await eventually(async () => {
      const res = await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(phone)}`);
      if (res.body.messages.length < 1) throw new Error('no message yet');
      return res.body.messages;
    });
    const link = /(https?:\/\/\S+)/.exec(messages[0].text)![1];
    const approved = await fetch(link.split('?')[0], {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sig: new URL(link).searchParams.get('sig')!, decision: 'approve' }),
    });
    expect(approved.status).toBe(200);
    const tokens = await client.post('/v1/oauth2/token', {
      grant_type: 'urn:openid:params:grant-type:ciba',
      auth_req_id: started.body.auth_req_id,
      client_id: app.client_id,
      client_secret: app.client_secret,
    });
    expect(tokens.status).toBe(200);
    return tokens.body.access_token as string;
  };
  const userinfo = async (accessToken: string) =>
    (
      await fetch(`${f.pass.url}/v1/oauth2/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })
    ).json() as Promise<Record<string, unknown>>;
  const unknownUser = (email: string) =>
    client.post('/v1/oauth2/bc-authorize', {
      client_id: app.client_id,
      client_secret: app.client_secret,
      login_hint: email,
      scope: 'openid',
    });

  beforeAll(async () => {
    f = await startPass({ PASS_BACKGROUND_REFRESH_MS: '2500' });
    app = await registerApplication(f, {
      scopes: [
        'openid',
        'email',
        'phone',
        'profile',
        'identity',
        'documents',
        'biometric',
        'verification',
        'background',
      ],
    });
    client = new ApiClient(f.pass.url);
    producer = testKafka().producer();
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await f?.close();
    await closeDb();
  });

  it('a successful process that proved the e-mail, with its document and face, verifies the person; a redelivered event is applied once', async () => {
    const accountId = id('ACC');
    const email = `verified.${Date.now()}@example.com`;
    const phone = `+57301${String(Date.now()).slice(-7)}`;
    await personWithPhone(email, phone);
    const processId = id('IDP');
    const document = validationFinished(accountId, 'document-validation', [], {
      country: 'CO',
      document_type: 'national-id',
      process_id: processId,
    });
    const face = validationFinished(accountId, 'face-recognition', [{ name: 'passive_liveness', status: 'success' }], {
      process_id: processId,
    });
    const emailCode = validationFinished(accountId, 'email-verification', [], { process_id: processId });
    const process = processFinished(
      accountId,
      {
        email: 'typed.by.anyone@example.com',
        phone_number: '+573009998877',
        first_name: 'Lucía',
        last_name: 'Pérez',
        date_of_birth: '1991-02-03',
        country: 'CO',
        document_type: 'national-id',
        document_number: '52123456',
      },
      'success',
      [proof('email', emailCode, email.toUpperCase()), proof('document', document), proof('face', face)],
      processId,
    );
    // the validations arrive before and after the process: the order does not matter
    await send(document);
    await send(emailCode);
    await send(process);
    await send(face);
    // the same event again (same id) with other data: the inbox has applied it already
    const redelivered = JSON.parse(JSON.stringify(process)) as typeof process;
    (redelivered.payload as { variables: Record<string, string> }).variables.first_name = 'Other';
    await send(redelivered);

    const accessToken = await tokensFor(
      email,
      phone,
      'openid email phone profile identity documents biometric verification',
    );
    // the validations are on other partitions than the process's: wait until every one has been applied
    const claims = await eventually(
      async () => {
        const current = await userinfo(accessToken);
        expect(current).toMatchObject({ verification_methods: ['document', 'face', 'phone'], face_enrolled: true });
        return current;
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(claims).toMatchObject({
      email,
      phone_number: phone,
      phone_number_verified: true,
      name: 'Lucía Pérez',
      first_name: 'Lucía',
      identity_verified: true,
      verification_level: 'high',
      given_name: 'Lucía',
      family_name: 'Pérez',
      birthdate: '1991-02-03',
      nationality: 'CO',
      document_number: '52123456',
      document_type: 'national-id',
      documents: [{ country: 'co', document_type: 'national-id', document_number: '52123456', verified: true }],
      face_enrolled: true,
      liveness_check_passed: true,
      verification_method: 'face_match',
      verification_status: 'verified',
      verification_methods: ['document', 'face', 'phone'],
    });
    expect(claims.last_face_verification_date).toEqual(expect.any(String));
  }, 90_000);

  it('a failed process, or a successful one whose e-mail was only typed in, verifies nobody', async () => {
    const failedEmail = `failed.${Date.now()}@example.com`;
    const typedEmail = `typed.${Date.now()}@example.com`;
    const accountId = id('ACC');
    const emailCode = id('VLD');
    await send(
      processFinished(accountId, { email: failedEmail, first_name: 'Eva' }, 'failure', [
        proof('email', emailCode, failedEmail),
      ]),
    );
    await send(processFinished(accountId, { email: typedEmail, first_name: 'Eva' }));
    await send(validationFinished(accountId, 'document-validation'));
    // a later event of the same topic is consumed after them (one key, one partition): then nothing was created
    const marker = `marker.${Date.now()}@example.com`;
    await send(processFinished(accountId, { email: marker }, 'success', [proof('email', id('VLD'), marker)]));
    await eventually(async () => expect((await unknownUser(marker)).body.error).not.toBe('unknown_user_id'), {
      timeoutMs: 30_000,
      intervalMs: 500,
    });
    for (const email of [failedEmail, typedEmail]) {
      const res = await unknownUser(email);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('unknown_user_id');
    }
  }, 60_000);

  it('a face validation that is not a success leaves the identity unverified', async () => {
    const accountId = id('ACC');
    const processId = id('IDP');
    const email = `declined.${Date.now()}@example.com`;
    const phone = `+57302${String(Date.now()).slice(-7)}`;
    await personWithPhone(email, phone);
    const document = validationFinished(accountId, 'document-validation', [], { process_id: processId });
    const face = validationFinished(accountId, 'face-recognition', [], {
      validation_status: 'failure',
      process_id: processId,
    });
    await send(document);
    await send(face);
    await send(
      processFinished(
        accountId,
        { email, first_name: 'Noa' },
        'success',
        [proof('email', id('VLD'), email), proof('document', document), proof('face', face)],
        processId,
      ),
    );
    // bound to the person, with both validations known
    await eventually(
      async () => {
        const { rows } = await db().query(
          `SELECT count(*)::int AS n FROM pass.identity_processes p JOIN pass.account_validations v
             ON v.tenant_id = p.tenant_id AND v.process_id = p.process_id WHERE p.process_id = $1`,
          [processId],
        );
        expect(rows[0].n).toBe(2);
      },
      { timeoutMs: 30_000, intervalMs: 300 },
    );
    const accessToken = await tokensFor(email, phone, 'openid identity biometric verification');
    const claims = await userinfo(accessToken);
    expect(claims).toMatchObject({ identity_verified: false, verification_status: 'unverified', face_enrolled: false });
    expect(claims.given_name).toBeUndefined();
    expect(claims.liveness_check_passed).toBeUndefined();
  }, 60_000);

  describe('background: an in-progress check is refreshed before userinfo answers', () => {
    const check = (checkId: string, documentNumber: string, status: string, at: Date) => ({
      check_id: checkId,
      tenant_id: tenantId,
      country: 'CO',
      type: 'person',
      status,
      score: status === 'completed' ? 0.9 : -1,
      id_score: 1,
      homonym_score: 1,
      inputs: { national_id: documentNumber },
      creation_date: at.toISOString(),
      update_date: at.toISOString(),
    });
    const timedUserinfo = async (accessToken: string) => {
      const started = Date.now();
      const claims = await userinfo(accessToken);
      return { claims, ms: Date.now() - started };
    };

    it("waits for the person's check to finish and answers with its result", async () => {
      const documentNumber = `DOC${Date.now()}`;
      const person = await seedUser(f.operator, {
        identity: { verified: true, document_number: documentNumber, document_type: 'national-id' },
      });
      const checkId = id('CHK');
      const createdAt = new Date();
      await send(
        envelope('checks.check.created', checkId, { check: check(checkId, documentNumber, 'in_progress', createdAt) }),
      );
      const accessToken = await tokensFor(person.email, person.phone, 'openid background');
      // the check is in progress: userinfo waits for it (bounded at 2.5 s here) ...
      const pending = timedUserinfo(accessToken);
      await new Promise((r) => setTimeout(r, 800));
      await send(
        envelope('checks.check.finished', checkId, {
          check: check(checkId, documentNumber, 'completed', new Date(createdAt.getTime() + 1000)),
        }),
      );
      // ... and answers with the finished check's result
      const { claims } = await pending;
      expect(claims).toMatchObject({
        background_verified: true,
        trust_level: 'high',
        verification_badges: ['background_check'],
      });
    }, 60_000);

    it('answers after the bound with the check still in progress (not verified, no trust level)', async () => {
      const documentNumber = `DOC${Date.now()}`;
      const person = await seedUser(f.operator, {
        identity: { verified: true, document_number: documentNumber, document_type: 'national-id' },
      });
      const checkId = id('CHK');
      await send(
        envelope('checks.check.created', checkId, { check: check(checkId, documentNumber, 'in_progress', new Date()) }),
      );
      const accessToken = await tokensFor(person.email, person.phone, 'openid background');
      await eventually(
        async () => {
          const { claims, ms } = await timedUserinfo(accessToken);
          expect(ms).toBeGreaterThanOrEqual(2400);
          expect(claims.background_verified).toBe(false);
          expect(claims.trust_level).toBeUndefined();
        },
        { timeoutMs: 20_000 },
      );
    }, 60_000);
  });
});
