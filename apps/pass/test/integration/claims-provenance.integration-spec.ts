import { randomUUID } from 'node:crypto';

import { ApiClient, closeDb, db, eventually, testKafka } from '@kyc/testing';
import type { Producer } from 'kafkajs';
import { Browser } from 'playwright-core';

import {
  launchBrowser,
  PassFixture,
  registerApplication,
  signInAndConsent,
  startPass,
  TestApplication,
} from './support/pass-fixture';

const id = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, '')}`;
type Json = Record<string, any>;

/**
 * Claims have provenance; no tenant can verify, or re-route, another tenant's person. Two tenants: A runs
 * identity processes (its events published on the identity and validations topics as those services publish
 * them), B has a pass application with CIBA. The attack of issue 30 §2 is replayed step by step; then the
 * legitimate path (a process that proved the person's e-mail, with document and face) still verifies them.
 */
describe('pass: claims provenance across tenants', () => {
  let f: PassFixture;
  let browser: Browser;
  let appB: TestApplication;
  let client: ApiClient;
  let producer: Producer;
  const stamp = Date.now();
  const tenantA = `tenanta${stamp}`;
  const tenantB = `tenantb${stamp}`;

  const envelope = (tenantId: string, topic: string, aggregateId: string, payload: unknown) => ({
    id: randomUUID(),
    type: topic,
    version: 1,
    tenant_id: tenantId,
    occurred_at: new Date().toISOString(),
    aggregate_id: aggregateId,
    payload,
  });
  type Envelope = ReturnType<typeof envelope>;
  /** Publishes the events and waits until pass has applied every one (its inbox has their ids). */
  const deliver = async (...events: Envelope[]) => {
    for (const e of events)
      await producer.send({ topic: e.type, messages: [{ key: e.aggregate_id, value: JSON.stringify(e) }] });
    await eventually(
      async () => {
        const { rows } = await db().query(
          `SELECT count(*)::int AS n FROM pass.processed_messages WHERE event_id = ANY($1)`,
          [events.map((e) => e.id)],
        );
        expect(rows[0].n).toBe(events.length);
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
  };
  const validationFinished = (
    tenantId: string,
    accountId: string,
    processId: string,
    type: string,
    over: Json = {},
    subvalidations: unknown[] = [],
  ) => {
    const validationId = id('VLD');
    const now = new Date().toISOString();
    return envelope(tenantId, 'validations.validation.finished', validationId, {
      validation: {
        validation_id: validationId,
        tenant_id: tenantId,
        account_id: accountId,
        type,
        validation_status: 'success',
        manual_review_status: 'not_required',
        process_id: processId,
        creation_date: now,
        update_date: now,
        finished_date: now,
        ...over,
      },
      subvalidations,
    });
  };
  const processFinished = (
    tenantId: string,
    processId: string,
    accountId: string,
    variables: Record<string, string>,
    proofs?: { step_type: string; validation_id: string; value?: string }[],
  ) => {
    const now = new Date().toISOString();
    return envelope(tenantId, 'identity.process.finished', processId, {
      process: {
        process_id: processId,
        tenant_id: tenantId,
        flow_id: id('IPF'),
        account_id: accountId,
        user_id: 'user-1',
        status: 'success',
        creation_date: now,
        update_date: now,
        finished_date: now,
      },
      variables,
      ...(proofs ? { proofs: proofs.map((p) => ({ ...p, proven_date: now })) } : {}),
    });
  };
  const messagesTo = async (phone: string): Promise<{ text: string }[]> =>
    (await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(phone)}`)).body.messages;
  const tokenJson = (body: Json) =>
    fetch(`${f.pass.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
  const userinfo = async (accessToken: string): Promise<Json> =>
    (await fetch(`${f.pass.url}/v1/oauth2/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })).json();

  /** The person signs in to B's application (e-mail code on pass's page, consent), B exchanges the code. */
  const signInToB = async (email: string, scope = 'openid email phone identity verification') => {
    const state = randomUUID();
    const url = new URL(`${f.pass.url}/authorize`);
    for (const [k, v] of Object.entries({
      client_id: appB.client_id,
      redirect_uri: appB.redirect_uri,
      response_type: 'code',
      scope,
      state,
      // RFC 7636's example pair: PKCE is on by default for new applications.
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(k, v);
    const context = await browser.newContext();
    const callback = await signInAndConsent(await context.newPage(), f.smtp, url.href, appB.redirect_uri, email);
    await context.close();
    const tokens = await tokenJson({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code'),
      client_id: appB.client_id,
      client_secret: appB.client_secret,
      redirect_uri: appB.redirect_uri,
      code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    });
    expect(tokens.status).toBe(200);
    return tokens.body.access_token as string;
  };

  beforeAll(async () => {
    f = await startPass();
    browser = await launchBrowser();
    appB = await registerApplication(f, { tenant_id: tenantB, name: 'Bank B' });
    client = new ApiClient(f.pass.url);
    producer = testKafka().producer();
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await browser?.close();
    await f?.close();
    await closeDb();
  });

  it("tenant A's process with a typed-in e-mail neither verifies B's person nor re-routes B's CIBA approvals to A's phone", async () => {
    const victim = `victim.${stamp}@example.com`;
    const attackerPhone = `+57310${String(stamp).slice(-7)}`;
    // the person has a pass account (they signed in to B's application once)
    await signInToB(victim);

    // Tenant A: a process whose form step typed the victim's e-mail and A's phone; A's own document, face and
    // phone validations passed in it (A controls the person in front of its camera and the phone).
    const accountA = id('ACC');
    const processA = id('IDP');
    const validations = [
      validationFinished(tenantA, accountA, processA, 'document-validation', {
        country: 'CO',
        document_type: 'national-id',
      }),
      validationFinished(tenantA, accountA, processA, 'face-recognition', {}, [
        { name: 'passive_liveness', status: 'success' },
      ]),
      validationFinished(tenantA, accountA, processA, 'phone-verification'),
    ];
    const forged = {
      email: victim,
      phone_number: attackerPhone,
      first_name: 'Mallory',
      last_name: 'Forged',
      date_of_birth: '1980-01-01',
      country: 'CO',
      document_type: 'national-id',
      document_number: '99999999',
    };
    const [document, face, phone] = validations.map((v) => (v.payload as Json).validation.validation_id as string);
    await deliver(
      ...validations,
      processFinished(tenantA, processA, accountA, forged, [
        { step_type: 'document', validation_id: document },
        { step_type: 'face', validation_id: face },
        { step_type: 'phone', validation_id: phone, value: attackerPhone },
      ]),
    );
    // The same, with A proving its own e-mail in the process while the form typed the victim's.
    const processA2 = id('IDP');
    const accountA2 = id('ACC');
    const attackerEmail = `mallory.${stamp}@tenant-a.example`;
    const v2 = [
      validationFinished(tenantA, accountA2, processA2, 'email-verification'),
      validationFinished(tenantA, accountA2, processA2, 'document-validation'),
      validationFinished(tenantA, accountA2, processA2, 'face-recognition'),
    ];
    const [email2, document2, face2] = v2.map((v) => (v.payload as Json).validation.validation_id as string);
    await deliver(
      ...v2,
      processFinished(tenantA, processA2, accountA2, forged, [
        { step_type: 'email', validation_id: email2, value: attackerEmail },
        { step_type: 'document', validation_id: document2 },
        { step_type: 'face', validation_id: face2 },
      ]),
    );

    // What the attack reached, step by step (each must stay false).
    const reached = { approval_sms_to_attacker: false, attacker_approved: false, forged_identity_at_b: false };
    // 1. B asks the person for an approval (CIBA): the message must not go to A's phone.
    const started = await client.post('/v1/oauth2/bc-authorize', {
      client_id: appB.client_id,
      client_secret: appB.client_secret,
      login_hint: victim,
      scope: 'openid identity',
      binding_message: 'Sign in to Bank B',
    });
    let accessToken: string | undefined;
    if (started.status === 200) {
      const sms = await eventually(
        async () => {
          const m = await messagesTo(attackerPhone);
          if (!m.length) throw new Error('no message');
          return m;
        },
        { timeoutMs: 5_000 },
      ).catch(() => []);
      reached.approval_sms_to_attacker = sms.length > 0;
      if (sms.length) {
        // 2. A approves on the link it received.
        const link = /(https?:\/\/\S+)/.exec(sms[0].text)![1];
        const approved = await fetch(link.split('?')[0], {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ sig: new URL(link).searchParams.get('sig')!, decision: 'approve' }),
        });
        const tokens = await client.post('/v1/oauth2/token', {
          grant_type: 'urn:openid:params:grant-type:ciba',
          auth_req_id: started.body.auth_req_id,
          client_id: appB.client_id,
          client_secret: appB.client_secret,
        });
        reached.attacker_approved = approved.status === 200 && tokens.status === 200;
        accessToken = tokens.body.access_token;
      }
    }
    // 3. B reads the person's identity (with the CIBA tokens, or the person's own sign-in).
    accessToken ??= await signInToB(victim);
    const claims = await userinfo(accessToken);
    reached.forged_identity_at_b = claims.identity_verified === true || claims.given_name === 'Mallory';
    expect(reached).toEqual({ approval_sms_to_attacker: false, attacker_approved: false, forged_identity_at_b: false });

    // Refused at the first step: the person has no phone proven in pass, so no message went anywhere.
    expect(started.status).toBe(400);
    expect(started.body.error).toBe('invalid_request');
    expect(await messagesTo(attackerPhone)).toEqual([]);
    const mine = await userinfo(await signInToB(victim));
    expect(mine).toMatchObject({ email: victim, identity_verified: false, verification_status: 'unverified' });
    expect(mine.phone_number).toBeUndefined();
    // A's second process bound its claims to the e-mail it proved (A's own), never to the typed-in one.
    const { rows } = await db().query(
      `SELECT u.email, p.tenant_id FROM pass.identity_processes p JOIN pass.users u ON u.id = p.user_id WHERE p.process_id = ANY($1)`,
      [[processA, processA2]],
    );
    expect(rows).toEqual([{ email: attackerEmail, tenant_id: tenantA }]);
  }, 120_000);

  it("a process that proved the person's e-mail, with document and face, verifies them; another tenant's later process does not replace it, nor the CIBA phone", async () => {
    const person = `lucia.${stamp}@example.com`;
    const accountA = id('ACC');
    const processA = id('IDP');
    const vs = [
      validationFinished(tenantA, accountA, processA, 'email-verification'),
      validationFinished(tenantA, accountA, processA, 'document-validation', {
        country: 'CO',
        document_type: 'national-id',
      }),
      validationFinished(tenantA, accountA, processA, 'face-recognition', {}, [
        { name: 'passive_liveness', status: 'success' },
      ]),
    ];
    const [emailV, documentV, faceV] = vs.map((v) => (v.payload as Json).validation.validation_id as string);
    await deliver(
      ...vs,
      processFinished(
        tenantA,
        processA,
        accountA,
        {
          email: person.toUpperCase(),
          first_name: 'Lucía',
          last_name: 'Pérez',
          date_of_birth: '1991-02-03',
          country: 'CO',
          document_type: 'national-id',
          document_number: '52123456',
          phone_number: '+573019990000',
        },
        [
          { step_type: 'email', validation_id: emailV, value: person.toUpperCase() },
          { step_type: 'document', validation_id: documentV },
          { step_type: 'face', validation_id: faceV },
          { step_type: 'phone', validation_id: id('VLD'), value: '+573019990000' },
        ],
      ),
    );
    // Tenant B later proves the same e-mail in its own process, with other data and its own document and face.
    const accountB = id('ACC');
    const processB = id('IDP');
    const vb = [
      validationFinished(tenantB, accountB, processB, 'email-verification'),
      validationFinished(tenantB, accountB, processB, 'document-validation'),
      validationFinished(tenantB, accountB, processB, 'face-recognition'),
    ];
    const [emailB, documentB, faceB] = vb.map((v) => (v.payload as Json).validation.validation_id as string);
    await deliver(
      ...vb,
      processFinished(
        tenantB,
        processB,
        accountB,
        {
          email: person,
          first_name: 'Other',
          last_name: 'Name',
          document_number: '11111111',
          document_type: 'passport',
          country: 'CO',
        },
        [
          { step_type: 'email', validation_id: emailB, value: person },
          { step_type: 'document', validation_id: documentB },
          { step_type: 'face', validation_id: faceB },
        ],
      ),
    );

    const claims = await userinfo(await signInToB(person, 'openid email phone identity verification'));
    expect(claims).toMatchObject({
      email: person,
      identity_verified: true,
      verification_level: 'high',
      given_name: 'Lucía',
      family_name: 'Pérez',
      birthdate: '1991-02-03',
      nationality: 'CO',
      document_number: '52123456',
      verification_status: 'verified',
      verification_methods: ['document', 'face'],
    });
    // the phone a tenant's process proved is not the CIBA channel: approvals need a phone proven in pass
    expect(claims.phone_number).toBeUndefined();
    const ciba = await client.post('/v1/oauth2/bc-authorize', {
      client_id: appB.client_id,
      client_secret: appB.client_secret,
      login_hint: person,
      scope: 'openid',
    });
    expect(ciba.body.error).toBe('invalid_request');

    // a background check of tenant A on the proven document; tenant B's later check does not replace it
    const check = (tenantId: string, score: number, at: Date) => {
      const checkId = id('CHK');
      return envelope(tenantId, 'checks.check.finished', checkId, {
        check: {
          check_id: checkId,
          tenant_id: tenantId,
          country: 'CO',
          type: 'person',
          status: 'completed',
          score,
          id_score: 1,
          homonym_score: 1,
          inputs: { national_id: '52123456' },
          creation_date: at.toISOString(),
          update_date: at.toISOString(),
        },
      });
    };
    // whatever order they arrive in: B's check before A's, and B's check after A's
    await deliver(check(tenantB, 0.2, new Date(Date.now() - 1000)));
    const checkA = check(tenantA, 0.9, new Date());
    await deliver(checkA);
    await deliver(check(tenantB, 0.1, new Date(Date.now() + 1000)));

    // every stored claim carries its provenance
    const { rows } = await db().query(`SELECT provenance, background FROM pass.users WHERE email = $1`, [person]);
    expect(rows[0].background).toMatchObject({ score: 0.9, status: 'completed' });
    expect(rows[0].provenance).toMatchObject({
      email: { source: 'pass', method: 'email_otp' },
      identity: {
        source: 'identity',
        tenant_id: tenantA,
        process_id: processA,
        method: 'document+face',
        validation_ids: [documentV, faceV],
        verified_at: expect.any(String),
      },
      documents: {
        'co:national-id': { source: 'identity', tenant_id: tenantA, process_id: processA, method: 'document' },
      },
      biometric: {
        source: 'identity',
        tenant_id: tenantA,
        process_id: processA,
        method: 'face',
        validation_ids: [faceV],
      },
      background: {
        source: 'checks',
        tenant_id: tenantA,
        check_id: (checkA.payload as Json).check.check_id,
        method: 'background_check',
      },
    });
  }, 120_000);

  it("a phone code does not bind: A's process that proved the person's CIBA phone changes nothing of theirs", async () => {
    const email = `carla.${stamp}@example.com`;
    const phone = `+57311${String(stamp).slice(-7)}`;
    const seeded = await f.operator.request(
      'PUT',
      '/v1/admin/users',
      { email, phone_number: phone, phone_verified: true },
      { 'content-type': 'application/json' },
    );
    expect(seeded.status).toBe(200);
    const accountA = id('ACC');
    const processA = id('IDP');
    const vs = [
      validationFinished(tenantA, accountA, processA, 'phone-verification', { enrolled_phone_number: phone }),
      validationFinished(tenantA, accountA, processA, 'document-validation'),
      validationFinished(tenantA, accountA, processA, 'face-recognition'),
    ];
    const [phoneV, documentV, faceV] = vs.map((v) => (v.payload as Json).validation.validation_id as string);
    await deliver(
      ...vs,
      processFinished(tenantA, processA, accountA, { email, first_name: 'Mallory' }, [
        { step_type: 'phone', validation_id: phoneV, value: phone },
        { step_type: 'document', validation_id: documentV },
        { step_type: 'face', validation_id: faceV },
      ]),
    );
    const { rows } = await db().query(
      `SELECT u.identity, u.phone_number, (SELECT count(*)::int FROM pass.identity_processes p WHERE p.process_id = $2) AS bound
         FROM pass.users u WHERE u.email = $1`,
      [email, processA],
    );
    expect(rows).toEqual([{ identity: {}, phone_number: phone, bound: 0 }]);
  }, 60_000);
});
