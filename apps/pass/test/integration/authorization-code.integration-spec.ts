import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { Browser } from 'playwright-core';
import { closeDb, db } from '@kyc/testing';
import {
  launchBrowser,
  PassFixture,
  registerApplication,
  seedUser,
  signInAndConsent,
  startPass,
  TestApplication,
} from './support/pass-fixture';

const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

/** The authorization code flow driven by a real relying party (openid-client) and a real browser. */
describe('pass: authorization code flow', () => {
  let f: PassFixture;
  let browser: Browser;
  let app: TestApplication;
  let user: { email: string };
  let config: oidc.Configuration;

  const configuration = (a: TestApplication) => {
    const c = new oidc.Configuration(
      {
        issuer: f.pass.url,
        authorization_endpoint: `${f.pass.url}/authorize`,
        token_endpoint: `${f.pass.url}/v1/oauth2/token`,
        userinfo_endpoint: `${f.pass.url}/v1/oauth2/userinfo`,
        backchannel_authentication_endpoint: `${f.pass.url}/v1/oauth2/bc-authorize`,
      },
      a.client_id,
      a.client_secret,
      oidc.ClientSecretPost(a.client_secret),
    );
    oidc.allowInsecureRequests(c);
    return c;
  };

  /** Runs the browser part; returns the code and the state sent. */
  const authorize = async (scope: string, a = app) => {
    const state = randomUUID();
    const url = oidc.buildAuthorizationUrl(configuration(a), { redirect_uri: a.redirect_uri, scope, state });
    const context = await browser.newContext();
    const page = await context.newPage();
    const callback = await signInAndConsent(page, f.smtp, url.href, a.redirect_uri, user.email);
    await context.close();
    return { callback, state };
  };

  const tokenJson = (body: Record<string, unknown>) =>
    fetch(`${f.pass.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));

  beforeAll(async () => {
    f = await startPass();
    browser = await launchBrowser();
    app = await registerApplication(f);
    user = await seedUser(f.operator);
    config = configuration(app);
  });

  afterAll(async () => {
    await browser?.close();
    await f?.close();
    await closeDb();
  });

  it('signs in by e-mail code, consents, and the relying party gets tokens and claims', async () => {
    const { callback, state } = await authorize('openid email identity');
    expect(callback.searchParams.get('state')).toBe(state);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { expectedState: state });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'identity', 'openid']);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const claims = decode(tokens.id_token!);
    expect(claims).toMatchObject({ iss: f.pass.url, aud: [app.client_id], acr: 'urn:pass:loa:2', amr: ['otp', 'email'] });
    expect(claims.exp - claims.iat).toBe(300);
    expect(claims.jti).toEqual(expect.any(String));
    expect(claims.auth_time).toEqual(expect.any(Number));
    expect(claims).not.toHaveProperty('at_hash');

    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: claims.sub, email: user.email, email_verified: true, identity_verified: true, given_name: 'Ana' });
    expect(info).not.toHaveProperty('phone_number');
  });

  it('exchanges a code sent as JSON, once: the second use is a validation_error in the service envelope', async () => {
    const { callback } = await authorize('openid email');
    const body = {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code'),
      client_id: app.client_id,
      client_secret: app.client_secret,
      redirect_uri: app.redirect_uri,
    };
    const first = await tokenJson(body);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'openid email' });
    const again = await tokenJson(body);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 400, status: 'Bad Request', error_code: 'validation_error' });
  });

  it('answers 401 bad_credentials for a wrong client secret on the JSON authorization_code grant', async () => {
    const { callback } = await authorize('openid');
    const res = await tokenJson({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code'),
      client_id: app.client_id,
      client_secret: 'ps_wrong',
      redirect_uri: app.redirect_uri,
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 401, status: 'Unauthorized', error_code: 'bad_credentials' });
  });

  it('answers 400 validation_error for a redirect_uri that differs from the authorization request', async () => {
    const { callback } = await authorize('openid');
    const res = await tokenJson({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code'),
      client_id: app.client_id,
      client_secret: app.client_secret,
      redirect_uri: `${app.redirect_uri}/other`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, error_code: 'validation_error' });
  });

  it('answers 400 validation_error for an unknown code', async () => {
    const res = await tokenJson({
      grant_type: 'authorization_code',
      code: 'not-a-code',
      client_id: app.client_id,
      client_secret: app.client_secret,
      redirect_uri: app.redirect_uri,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: 'validation_error' });
  });

  it('stores the provider state in Postgres (codes, tokens, grants), not in memory', async () => {
    const { rows } = await db().query(`SELECT DISTINCT model FROM pass.oidc_models`);
    expect(rows.map((r) => r.model)).toEqual(expect.arrayContaining(['AuthorizationCode', 'AccessToken', 'RefreshToken', 'Grant', 'Session']));
  });
});
