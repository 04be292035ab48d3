import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';

import {
  ApiClient,
  createTenant,
  eventually,
  freePorts,
  ServiceProcess,
  SmtpSink,
  startProcess,
  startSmtpSink,
  TestTenant,
} from '@kyc/testing';

import { jpegLike, otpFromMail, upload } from './validations-helpers';

/** A round-robin HTTP proxy over `targets` (set once they run), as a Service spreads requests over pods. */
function roundRobin() {
  const targets: string[] = [];
  const hits = new Map<string, number>();
  /** Answers to requests it matches are held until `release` resolves (a slow network on the way back). */
  const hold: { matches?: (method: string, url: string) => boolean; release?: Promise<void> } = {};
  let next = 0;
  const server = http.createServer((req, res) => {
    const target = new URL(targets[next++ % targets.length]);
    hits.set(target.port, (hits.get(target.port) ?? 0) + 1);
    const held = hold.matches?.(req.method ?? '', req.url ?? '') ? hold.release : undefined;
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        void (held ?? Promise.resolve()).then(() => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  return {
    targets,
    hits,
    hold,
    listen: (port: number) =>
      new Promise<string>((resolve) => server.listen(port, '127.0.0.1', () => resolve(`http://127.0.0.1:${port}`))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    port: () => (server.address() as AddressInfo).port,
  };
}

/**
 * Two processes of validations and two of identity, each pair behind a round-robin proxy, as two
 * pods behind a Service: consecutive requests land on different processes. What one replica signs
 * (an upload link), peppers (an OTP) or starts (a process's validator step) the other honours.
 */
describe('replicas: two validations and two identity processes behind round-robin proxies', () => {
  const validationsProxy = roundRobin();
  const identityProxy = roundRobin();
  const processes: ServiceProcess[] = [];
  let smtp: SmtpSink;
  let tenant: TestTenant;
  let validations: ApiClient;
  let identity: ApiClient;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    const [vProxy, iProxy, accountPort, v1, v2, i1, i2] = await freePorts(7);
    const [vUrl, iUrl] = await Promise.all([validationsProxy.listen(vProxy), identityProxy.listen(iProxy)]);
    const run = randomUUID().slice(0, 8);
    // What the manifests give every replica: the same secret, the same consumer group, the Service's URL.
    const validationsEnv = {
      VALIDATIONS_SECRET_KEY: `replicas-secret-${run}`,
      SERVICE_REPLICAS: '2',
      VALIDATIONS_SMTP_URL: smtp.url,
      PUBLIC_URL: vUrl,
      KAFKA_CONSUMER_GROUP: `validations-replicas-${run}`,
    };
    const identityEnv = {
      SERVICE_REPLICAS: '2',
      IDENTITY_VALIDATIONS_URL: vUrl,
      IDENTITY_SMTP_URL: smtp.url,
      PUBLIC_URL: iUrl,
      JOBS_POLL_MS: '100',
      KAFKA_CONSUMER_GROUP: `identity-replicas-${run}`,
    };
    processes.push(
      ...(await Promise.all([
        startProcess('account', accountPort, { KAFKA_CONSUMER_GROUP: `account-replicas-${run}` }),
        startProcess('validations', v1, validationsEnv),
        startProcess('validations', v2, validationsEnv),
        startProcess('identity', i1, identityEnv),
        startProcess('identity', i2, identityEnv),
      ])),
    );
    validationsProxy.targets.push(`http://127.0.0.1:${v1}`, `http://127.0.0.1:${v2}`);
    identityProxy.targets.push(`http://127.0.0.1:${i1}`, `http://127.0.0.1:${i2}`);
    tenant = await createTenant(processes[0].url, [
      `http://127.0.0.1:${v1}`,
      `http://127.0.0.1:${v2}`,
      `http://127.0.0.1:${i1}`,
      `http://127.0.0.1:${i2}`,
    ]);
    validations = new ApiClient(vUrl, tenant.apiKey);
    identity = new ApiClient(iUrl, tenant.apiKey);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.close()));
    await Promise.all([validationsProxy.close(), identityProxy.close()]);
    await smtp?.close();
  });

  it('an upload link signed by one validations replica is honoured by the other', async () => {
    const before = new Map(validationsProxy.hits);
    const created = await validations.post('/v1/validations', {
      type: 'document-validation',
      user_authorized: 'true',
      country: 'CO',
      document_type: 'national-id',
    });
    expect(created.status).toBe(201);
    const { front_url: front, reverse_url: reverse } = created.body.instructions;
    // Links name the Service (PUBLIC_URL), not the replica that made them.
    expect(front.startsWith(`http://127.0.0.1:${validationsProxy.port()}/`)).toBe(true);
    // The create went to one replica; the next two requests go to the other, then back.
    expect((await upload(front, jpegLike())).status).toBe(200);
    expect((await upload(reverse, jpegLike())).status).toBe(200);
    for (const port of validationsProxy.targets.map((t) => new URL(t).port))
      expect((validationsProxy.hits.get(port) ?? 0) - (before.get(port) ?? 0)).toBeGreaterThan(0);
  });

  it('an OTP sent by one validations replica is checked by the other', async () => {
    const email = `replica-${Date.now()}@mail.test`;
    const account = `replica-user-${Date.now()}`;
    expect((await validations.post('/v1/accounts', { account_id: account, first_name: 'Ana' })).status).toBe(201);
    const enrolled = await validations.post('/v1/enrollments', {
      type: 'email-verification',
      user_authorized: 'true',
      account_id: account,
      email,
    });
    expect([200, 201]).toContain(enrolled.status);
    const created = await validations.post('/v1/validations', {
      type: 'email-verification',
      user_authorized: 'true',
      account_id: account,
    });
    expect(created.status).toBe(201);
    const { code } = await otpFromMail(smtp, email);
    const checked = await validations.post(`/v1/validations/${created.body.validation_id}`, {
      type: 'email-verification',
      token: code,
    });
    expect([checked.status, checked.body.validation_status]).toEqual([200, 'success']);
  });

  /** A process of a form step then an e-mail step, its form step done and its code sent to `name`'s address. */
  async function formThenEmailProcess(name: string) {
    const flow = await identity.postJson('/v1/flows', {
      name: 'Form and e-mail',
      timeout_seconds: 3600,
      steps: [{ type: 'form', fields: [{ name: 'nickname', label: 'Nickname' }] }, { type: 'email' }],
    });
    expect(flow.status).toBe(201);
    const key = (
      await identity.post('/v1/api-keys', {
        key_type: 'web',
        grant: 'digital-identity',
        flow_id: flow.body.flow_id,
        country: 'CO',
        redirect_url: 'https://example.test/done',
      })
    ).body.api_key as string;
    const web = identity.withKey(key);
    const created = await web.post('/v1/processes');
    expect(created.status).toBe(201);
    const id = created.body.process_id as string;
    const [form, step] = created.body.steps;
    const submit = (body: unknown) => web.postJson(`/v1/processes/${id}`, body);
    expect(
      (
        await submit({
          step_id: form.step_id,
          verification_id: form.verification_id,
          type: 'form',
          expected_inputs: [{ name: 'nickname', value: 'Ana' }],
        })
      ).status,
    ).toBe(200);
    const email = `${name}.${Date.now()}@example.test`;
    const sent = await submit({
      step_id: step.step_id,
      verification_id: step.verification_id,
      type: 'email',
      expected_inputs: [{ name: 'email', value: email }],
    });
    expect(sent.body.steps[1].status).toBe('awaiting_validation');
    // The step's validation was created through the validations proxy; its code came by e-mail.
    const { code } = await otpFromMail(smtp, email);
    const sendCode = () =>
      submit({
        step_id: step.step_id,
        verification_id: step.verification_id,
        type: 'email',
        expected_inputs: [{ name: 'code', value: code }],
      });
    return { id, sendCode };
  }

  it('an identity process with an e-mail validator step runs across both identity and both validations replicas', async () => {
    const { id, sendCode } = await formThenEmailProcess('ana');
    await eventually(async () => expect((await sendCode()).status).toBe(200));
    // validations.validation.finished, consumed by the identity group (either replica), ends the process.
    await eventually(
      async () => expect((await identity.get(`/v1/processes/${id}/result`)).body).toMatchObject({ status: 'success' }),
      { timeoutMs: 30_000 },
    );
    for (const port of identityProxy.targets.map((t) => new URL(t).port))
      expect(identityProxy.hits.get(port)).toBeGreaterThan(0);
  });

  it('a right code whose validation ends the process before validations answers identity: 200 with the process finished', async () => {
    const { id, sendCode } = await formThenEmailProcess('bea');
    // validations' answer to the code (POST /v1/validations/{id}) is held on its way back to identity,
    // while validations.validation.finished reaches identity and ends the process first.
    let release!: () => void;
    validationsProxy.hold.release = new Promise<void>((resolve) => (release = resolve));
    validationsProxy.hold.matches = (method, url) => method === 'POST' && /^\/v1\/validations\/[^/?]+/.test(url);
    try {
      const answer = sendCode();
      await eventually(
        async () =>
          expect((await identity.get(`/v1/processes/${id}/result`)).body).toMatchObject({ status: 'success' }),
        { timeoutMs: 30_000 },
      );
      release();
      const res = await answer;
      expect([res.status, res.body.status]).toEqual([200, 'success']);
    } finally {
      validationsProxy.hold.matches = undefined;
      release();
    }
  });
});
