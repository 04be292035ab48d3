import { randomUUID } from 'node:crypto';

import { ApiClient, closeDb, db, eventually, testKafka } from '@kyc/testing';
import * as oidc from 'openid-client';
import { Browser } from 'playwright-core';

import {
  launchBrowser,
  PassFixture,
  registerApplication,
  seedUser,
  startPass,
  TestApplication,
} from './support/pass-fixture';

const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

/** CIBA poll mode: bc-authorize, the approval link on the user's phone, the approval page, the poll. */
describe('pass: CIBA (poll mode)', () => {
  let f: PassFixture;
  let browser: Browser;
  let app: TestApplication;
  let user: { email: string; phone: string };
  let client: ApiClient;

  const bcAuthorize = (body: Record<string, string>, a = app) =>
    client.post('/v1/oauth2/bc-authorize', { client_id: a.client_id, client_secret: a.client_secret, ...body });
  const poll = (authReqId: string, over: Record<string, string> = {}, a = app) =>
    client.post('/v1/oauth2/token', {
      grant_type: 'urn:openid:params:grant-type:ciba',
      auth_req_id: authReqId,
      client_id: a.client_id,
      client_secret: a.client_secret,
      ...over,
    });
  const approvalLink = async (phone: string, count: number) => {
    const messages = await eventually(async () => {
      const res = await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(phone)}`);
      if (res.body.messages.length < count) throw new Error('no message yet');
      return res.body.messages;
    });
    return /(https?:\/\/\S+)/.exec(messages[count - 1].text)![1];
  };
  const decide = async (link: string, button: '#approve' | '#decline') => {
    const page = await browser.newPage();
    await page.goto(link);
    await page.click(button);
    await page.waitForSelector('#outcome');
    await page.close();
  };

  beforeAll(async () => {
    f = await startPass({ PASS_SANDBOX_UNREACHABLE_PHONES: '+5730099999999' });
    browser = await launchBrowser();
    app = await registerApplication(f);
    user = await seedUser(f.operator);
    client = new ApiClient(f.pass.url);
  });

  afterAll(async () => {
    await browser?.close();
    await f?.close();
    await closeDb();
  });

  it('openid-client starts a request, the user approves on the page of the link, and the poll returns tokens', async () => {
    const config = new oidc.Configuration(
      {
        issuer: f.pass.url,
        token_endpoint: `${f.pass.url}/v1/oauth2/token`,
        backchannel_authentication_endpoint: `${f.pass.url}/v1/oauth2/bc-authorize`,
      },
      app.client_id,
      app.client_secret,
      oidc.ClientSecretPost(app.client_secret),
    );
    oidc.allowInsecureRequests(config);
    const started = await oidc.initiateBackchannelAuthentication(config, {
      scope: 'openid email documents',
      login_hint: user.email,
      binding_message: 'Pay 10 USD to Acme',
      ui_locales: 'en',
    });
    expect(started.interval).toBe(5);
    const link = await approvalLink(user.phone, 1);
    // the message and the page name who asks (the application and its tenant), not only what the client wrote
    const [sms] = (await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(user.phone)}`))
      .body.messages;
    expect(sms.text).toMatch(
      /^Acme web \(tenant acme\) asks you to approve a request\. Their message: "Pay 10 USD to Acme"\./,
    );
    const page = await browser.newPage();
    await page.goto(link);
    expect(await page.getAttribute('#requester', 'data-application')).toBe('Acme web');
    expect(await page.getAttribute('#requester', 'data-tenant')).toBe('acme');
    expect(await page.textContent('#binding_message')).toBe('Pay 10 USD to Acme');
    await page.click('#approve');
    await page.waitForSelector('#outcome');
    await page.close();
    const tokens = await oidc.pollBackchannelAuthenticationGrant(config, started);
    expect(tokens.refresh_token).toBeUndefined();
    const claims = decode(tokens.id_token!);
    expect(claims).toMatchObject({
      aud: [app.client_id],
      'urn:openid:params:jwt:claim:auth_req_id': started.auth_req_id,
    });
    expect(claims.at_hash).toEqual(expect.any(String));
    // redeemed: further polls answer expired_token
    // The client waited its interval: its previous poll is moved back in time (no 5 s real-time wait).
    await db().query(`UPDATE pass.oidc_models SET payload = '{"at":0}' WHERE model = 'CibaPoll' AND id = $1`, [
      started.auth_req_id,
    ]);
    const again = await poll(started.auth_req_id);
    expect(again.body.error).toBe('expired_token');
  }, 60_000);

  it('answers authorization_pending, then slow_down when polled faster than interval', async () => {
    const res = await bcAuthorize({ login_hint: user.email, scope: 'openid email' });
    expect(res.status).toBe(200);
    const first = await poll(res.body.auth_req_id);
    expect(first.status).toBe(400);
    expect(first.body.error).toBe('authorization_pending');
    const fast = await poll(res.body.auth_req_id);
    expect(fast.body.error).toBe('slow_down');
  });

  it('answers access_denied once the user declined', async () => {
    const res = await bcAuthorize({ login_hint: user.email, scope: 'openid' });
    const messages = (await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(user.phone)}`))
      .body.messages;
    const sent = messages.length;
    // without ui_locales the message is in Spanish, the platform's default
    expect(messages[sent - 1].text).toMatch(/^Acme web \(de acme\) te pide aprobar una solicitud\. Revísala: http/);
    await decide(await approvalLink(user.phone, sent), '#decline');
    const denied = await poll(res.body.auth_req_id);
    expect(denied.status).toBe(400);
    expect(denied.body.error).toBe('access_denied');
  }, 30_000);

  it('answers expired_token for an unknown auth_req_id', async () => {
    const res = await poll('unknown-request');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('expired_token');
  });

  it('answers invalid_grant for an auth_req_id of another client', async () => {
    const other = await registerApplication(f);
    const res = await bcAuthorize({ login_hint: user.email, scope: 'openid' });
    const stolen = await poll(res.body.auth_req_id, {}, other);
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_grant');
  });

  it('ignores Idempotency-Key on the OAuth endpoints: no claim left in progress, none shared between clients', async () => {
    const other = await registerApplication(f);
    const key = { 'Idempotency-Key': `oauth-${randomUUID()}` };
    const pollWithKey = (a: TestApplication) =>
      client.post(
        '/v1/oauth2/token',
        {
          grant_type: 'urn:openid:params:grant-type:ciba',
          auth_req_id: `unknown-${randomUUID()}`,
          client_id: a.client_id,
          client_secret: a.client_secret,
        },
        key,
      );
    const answers = [await pollWithKey(app), await pollWithKey(app), await pollWithKey(other)];
    expect(answers.map((r) => [r.status, r.body.error])).toEqual([
      [400, 'expired_token'],
      [400, 'expired_token'],
      [400, 'expired_token'],
    ]);
    const started = await client.post(
      '/v1/oauth2/bc-authorize',
      { client_id: app.client_id, client_secret: app.client_secret, login_hint: user.email, scope: 'openid' },
      key,
    );
    expect(started.status).toBe(200);
    const long = await client.post(
      '/v1/oauth2/bc-authorize',
      { client_id: app.client_id, client_secret: app.client_secret, login_hint: user.email, scope: 'openid' },
      { 'Idempotency-Key': 'k'.repeat(300) },
    );
    expect(long.status).toBe(200);
    const { rows } = await db().query(`SELECT count(*)::int AS n FROM pass.idempotency_keys WHERE status_code IS NULL`);
    expect(rows[0].n).toBe(0);
  });

  it('answers unsupported_grant_type for a wrong grant_type', async () => {
    const res = await poll('req-a', { grant_type: 'urn:example:nope' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported_grant_type');
  });

  it('answers unauthorized_client when CIBA is not enabled for the application', async () => {
    const plain = await registerApplication(f, { ciba_enabled: false });
    const res = await poll('req-b', {}, plain);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unauthorized_client');
  });

  it('answers invalid_client (401) when client authentication fails', async () => {
    const res = await poll('req-c', { client_secret: 'ps_wrong' });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  describe('bc-authorize errors', () => {
    it('answers input the platform refuses (NUL, oversized body) in the RFC 6749 shape, not the envelope', async () => {
      const nul = await bcAuthorize({ login_hint: `a\u0000@example.com`, scope: 'openid' });
      expect(nul.status).toBe(400);
      expect(nul.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
      const big = await bcAuthorize({ login_hint: user.email, scope: 'openid', pad: 'x'.repeat(1_100_000) });
      expect(big.status).toBe(413);
      expect(big.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    });

    it('requires binding_message with a sensitive scope (invalid_request)', async () => {
      const res = await bcAuthorize({ login_hint: user.email, scope: 'openid background' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
    });

    it('refuses a user without a verified phone (invalid_request)', async () => {
      const unverified = await seedUser(f.operator, { phone_verified: false });
      const res = await bcAuthorize({ login_hint: unverified.email, scope: 'openid' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
    });

    it('answers unknown_user_id for a login_hint that resolves to nobody, or is not an e-mail', async () => {
      for (const hint of ['nobody@example.com', 'not-an-email']) {
        const res = await bcAuthorize({ login_hint: hint, scope: 'openid' });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('unknown_user_id');
      }
    });

    it('answers a client that is not authenticated the same whoever login_hint names (nobody, no verified phone, a verified phone)', async () => {
      const noPhone = await seedUser(f.operator, { phone_verified: false });
      const hints = ['nobody@example.com', noPhone.email, user.email];
      const sent = async () =>
        (await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(user.phone)}`)).body
          .messages.length;
      const before = await sent();
      for (const credentials of [
        { client_id: app.client_id, client_secret: 'ps_wrong' },
        { client_id: app.client_id },
        { client_id: 'pc_unknown', client_secret: 'ps_wrong' },
      ]) {
        const answers = [];
        for (const login_hint of hints) {
          const res = await client.post('/v1/oauth2/bc-authorize', { ...credentials, login_hint, scope: 'openid' });
          answers.push({ status: res.status, body: res.body });
          const staged = await client.post('/v1/oauth2/approval-attachments', {
            ...credentials,
            login_hint,
            file_name: 'a.txt',
            content_type: 'text/plain',
          });
          answers.push({ status: staged.status, body: staged.body });
        }
        for (const a of answers.slice(0, 2)) expect([400, 401]).toContain(a.status);
        for (const other of [answers.slice(2, 4), answers.slice(4, 6)]) expect(other).toEqual(answers.slice(0, 2));
      }
      expect(await sent()).toBe(before);
    });

    it('answers 503 notifier_unavailable when the message cannot be delivered', async () => {
      const unreachable = await seedUser(f.operator, { phone_number: '+5730099999999' });
      const res = await bcAuthorize({ login_hint: unreachable.email, scope: 'openid' });
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('notifier_unavailable');
    });
  });

  it('builds the background claims from checks.check.finished (consumed once) and serves them on userinfo', async () => {
    const person = await seedUser(f.operator, {
      identity: { verified: true, document_number: `DOC${Date.now()}`, document_type: 'national-id' },
    });
    const doc = (
      await db().query(`SELECT identity->>'document_number' AS d FROM pass.users WHERE email = $1`, [person.email])
    ).rows[0].d as string;
    const checkId = `CHK${randomUUID().replace(/-/g, '')}`;
    const event = {
      id: randomUUID(),
      type: 'checks.check.finished',
      version: 1,
      tenant_id: 'acme',
      occurred_at: new Date().toISOString(),
      aggregate_id: checkId,
      payload: {
        check: {
          check_id: checkId,
          tenant_id: 'acme',
          country: 'CO',
          type: 'person',
          status: 'completed',
          score: 0.9,
          id_score: 1,
          homonym_score: 1,
          inputs: { national_id: doc },
          creation_date: new Date().toISOString(),
          update_date: new Date().toISOString(),
        },
      },
    };
    const producer = testKafka().producer();
    await producer.connect();
    // delivered twice: the inbox applies it once
    await producer.send({ topic: 'checks.check.finished', messages: [{ key: checkId, value: JSON.stringify(event) }] });
    await producer.send({ topic: 'checks.check.finished', messages: [{ key: checkId, value: JSON.stringify(event) }] });
    await producer.disconnect();

    const started = await bcAuthorize({
      login_hint: person.email,
      scope: 'openid background',
      binding_message: 'Check',
    });
    expect(started.status).toBe(200);
    const link = await approvalLink(person.phone, 1);
    const approve = await fetch(link.split('?')[0], {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sig: new URL(link).searchParams.get('sig')!, decision: 'approve' }),
    });
    expect(approve.status).toBe(200);
    const tokens = await poll(started.body.auth_req_id);
    expect(tokens.status).toBe(200);
    await eventually(
      async () => {
        const info = await fetch(`${f.pass.url}/v1/oauth2/userinfo`, {
          headers: { authorization: `Bearer ${tokens.body.access_token}` },
        }).then((r) => r.json());
        expect(info).toMatchObject({
          background_verified: true,
          trust_level: 'high',
          verification_badges: ['background_check'],
        });
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
  }, 60_000);

  describe('userinfo errors', () => {
    it('answers 401 without a bearer token or with an unknown one', async () => {
      for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 'Basic x' }] as Record<
        string,
        string
      >[]) {
        const res = await fetch(`${f.pass.url}/v1/oauth2/userinfo`, { headers });
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({ code: 401, error_code: 'invalid_token' });
      }
    });

    it('answers 401 insufficient_scope for a token with no claim scope', async () => {
      const started = await bcAuthorize({ login_hint: user.email, scope: 'openid approval:read' });
      const count = (await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(user.phone)}`))
        .body.messages.length;
      const link = await approvalLink(user.phone, count);
      await fetch(link.split('?')[0], {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ sig: new URL(link).searchParams.get('sig')!, decision: 'approve' }),
      });
      const tokens = await poll(started.body.auth_req_id);
      expect(tokens.status).toBe(200);
      const res = await fetch(`${f.pass.url}/v1/oauth2/userinfo`, {
        headers: { authorization: `Bearer ${tokens.body.access_token}` },
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error_code: 'insufficient_scope' });
    });

    it('answers 404 user_not_found when the user behind the token no longer exists', async () => {
      const person = await seedUser(f.operator);
      const started = await bcAuthorize({ login_hint: person.email, scope: 'openid email' });
      const link = await approvalLink(person.phone, 1);
      await fetch(link.split('?')[0], {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ sig: new URL(link).searchParams.get('sig')!, decision: 'approve' }),
      });
      const tokens = await poll(started.body.auth_req_id);
      await db().query(`DELETE FROM pass.users WHERE email = $1`, [person.email]);
      const res = await fetch(`${f.pass.url}/v1/oauth2/userinfo`, {
        headers: { authorization: `Bearer ${tokens.body.access_token}` },
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error_code: 'user_not_found' });
    });
  });
});
