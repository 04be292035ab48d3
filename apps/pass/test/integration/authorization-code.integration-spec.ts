import { randomUUID } from 'node:crypto';

import { closeDb, db } from '@kyc/testing';
import * as oidc from 'openid-client';
import { Browser } from 'playwright-core';

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

  /** Runs the browser part (PKCE S256: on by default for new applications); returns the code, state and verifier. */
  const authorize = async (scope: string, a = app) => {
    const state = randomUUID();
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(configuration(a), {
      redirect_uri: a.redirect_uri,
      scope,
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    const callback = await signInAndConsent(page, f.smtp, url.href, a.redirect_uri, user.email);
    await context.close();
    return { callback, state, verifier };
  };

  const tokenJson = (body: Record<string, unknown>) =>
    fetch(`${f.pass.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }));

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
    const { callback, state, verifier } = await authorize('openid email identity');
    expect(callback.searchParams.get('state')).toBe(state);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      expectedState: state,
      pkceCodeVerifier: verifier,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'identity', 'openid']);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const claims = decode(tokens.id_token!);
    expect(claims).toMatchObject({
      iss: f.pass.url,
      aud: [app.client_id],
      acr: 'urn:pass:loa:2',
      amr: ['otp', 'email'],
    });
    expect(claims.exp - claims.iat).toBe(300);
    expect(claims.jti).toEqual(expect.any(String));
    expect(claims.auth_time).toEqual(expect.any(Number));
    expect(claims).not.toHaveProperty('at_hash');

    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({
      sub: claims.sub,
      email: user.email,
      email_verified: true,
      identity_verified: true,
      given_name: 'Ana',
    });
    expect(info).not.toHaveProperty('phone_number');
  });

  it('exchanges a code sent as JSON, once: the second use is a validation_error in the service envelope', async () => {
    const { callback, verifier } = await authorize('openid email');
    const body = {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code'),
      client_id: app.client_id,
      client_secret: app.client_secret,
      redirect_uri: app.redirect_uri,
      code_verifier: verifier,
    };
    const first = await tokenJson(body);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'openid email' });
    const again = await tokenJson(body);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 400, status: 'Bad Request', error_code: 'validation_error' });
  });

  /** Access and refresh tokens stored for the grant of a code or refresh token. */
  const tokensOfGrant = async (model: string, id: string) => {
    const { rows } = await db().query(
      `SELECT count(*)::int AS n FROM pass.oidc_models
        WHERE model IN ('AccessToken', 'RefreshToken')
          AND grant_id = (SELECT grant_id FROM pass.oidc_models WHERE model = $1 AND id = $2)`,
      [model, id],
    );
    return rows[0].n as number;
  };

  it('answers one of two concurrent exchanges of a code; the other is refused and stores no tokens', async () => {
    const { callback, verifier } = await authorize('openid email');
    const code = callback.searchParams.get('code')!;
    const body = {
      grant_type: 'authorization_code',
      code,
      client_id: app.client_id,
      client_secret: app.client_secret,
      redirect_uri: app.redirect_uri,
      code_verifier: verifier,
    };
    const results = await Promise.all([tokenJson(body), tokenJson(body)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body).toMatchObject({ error_code: 'validation_error' });
    // The loser stores nothing: either it lost the race to consume the code (the winner's access and refresh
    // token stay), or it read the code already used and revoked the family (RFC 6749 4.1.2: nothing stays).
    const stored = await tokensOfGrant('AuthorizationCode', code);
    expect([0, 2]).toContain(stored);
    const winner = results.find((r) => r.status === 200)!.body;
    const info = await fetch(`${f.pass.url}/v1/oauth2/userinfo`, {
      headers: { authorization: `Bearer ${winner.access_token}` },
    });
    expect(info.status).toBe(stored === 2 ? 200 : 401);
  });

  it('answers 401 bad_credentials for a wrong client secret on the JSON authorization_code grant', async () => {
    const { callback, verifier } = await authorize('openid');
    const res = await tokenJson({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code'),
      client_id: app.client_id,
      client_secret: 'ps_wrong',
      redirect_uri: app.redirect_uri,
      code_verifier: verifier,
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 401, status: 'Unauthorized', error_code: 'bad_credentials' });
  });

  it('answers 400 validation_error for a redirect_uri that differs from the authorization request', async () => {
    const { callback, verifier } = await authorize('openid');
    const res = await tokenJson({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code'),
      client_id: app.client_id,
      client_secret: app.client_secret,
      redirect_uri: `${app.redirect_uri}/other`,
      code_verifier: verifier,
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
    expect(rows.map((r) => r.model)).toEqual(
      expect.arrayContaining(['AuthorizationCode', 'AccessToken', 'RefreshToken', 'Grant', 'Session']),
    );
  });

  describe('refresh_token grant (JSON, RFC 6749 envelope)', () => {
    const codeTokens = async (scope = 'openid email identity') => {
      const { callback, state, verifier } = await authorize(scope);
      return oidc.authorizationCodeGrant(config, callback, { expectedState: state, pkceCodeVerifier: verifier });
    };
    const refresh = (refreshToken: string, over: Record<string, unknown> = {}) =>
      tokenJson({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: app.client_id,
        client_secret: app.client_secret,
        ...over,
      });

    it('rotates the refresh token on every use, down-scopes, and never returns an id_token', async () => {
      const tokens = await codeTokens();
      const first = await refresh(tokens.refresh_token!, { scope: 'email' });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'email' });
      expect(first.body).not.toHaveProperty('id_token');
      expect(first.body.refresh_token).not.toBe(tokens.refresh_token);
      const info = await fetch(`${f.pass.url}/v1/oauth2/userinfo`, {
        headers: { authorization: `Bearer ${first.body.access_token}` },
      }).then((r) => r.json());
      expect(info).toHaveProperty('email');
      expect(info).not.toHaveProperty('identity_verified');
      // openid-client (form-encoded) also works with the rotated token
      const next = await oidc.refreshTokenGrant(config, first.body.refresh_token);
      expect(next.refresh_token).toEqual(expect.any(String));
    });

    it('answers invalid_scope for a scope outside the granted ones', async () => {
      const tokens = await codeTokens('openid email');
      const res = await refresh(tokens.refresh_token!, { scope: 'email identity' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_scope');
    });

    it('answers invalid_client (401) when the client secret is wrong', async () => {
      const tokens = await codeTokens('openid');
      const res = await refresh(tokens.refresh_token!, { client_secret: 'ps_wrong' });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_client');
    });

    it('answers invalid_grant for a token issued to another client', async () => {
      const other = await registerApplication(f);
      const tokens = await codeTokens('openid');
      const res = await refresh(tokens.refresh_token!, {
        client_id: other.client_id,
        client_secret: other.client_secret,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_grant');
    });

    it('revokes the whole family when a used refresh token is presented again', async () => {
      const tokens = await codeTokens('openid email');
      const rotated = await refresh(tokens.refresh_token!);
      expect(rotated.status).toBe(200);
      const reuse = await refresh(tokens.refresh_token!);
      expect(reuse.status).toBe(400);
      expect(reuse.body.error).toBe('invalid_grant');
      const child = await refresh(rotated.body.refresh_token);
      expect(child.status).toBe(400);
      expect(child.body.error).toBe('invalid_grant');
      const info = await fetch(`${f.pass.url}/v1/oauth2/userinfo`, {
        headers: { authorization: `Bearer ${rotated.body.access_token}` },
      });
      expect(info.status).toBe(401);
    });

    it('leaves exactly one winner of a concurrent double refresh', async () => {
      const tokens = await codeTokens('openid email');
      const results = await Promise.all([refresh(tokens.refresh_token!), refresh(tokens.refresh_token!)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(results.find((r) => r.status === 400)!.body.error).toBe('invalid_grant');
      // The loser stores nothing: the code exchange's pair and the winner's stay when it lost the race to
      // consume the token; when it read the token already used, the whole family is revoked.
      const stored = await tokensOfGrant('RefreshToken', tokens.refresh_token!);
      expect([0, 4]).toContain(stored);
      const winner = results.find((r) => r.status === 200)!.body;
      expect((await refresh(winner.refresh_token)).status).toBe(stored === 4 ? 200 : 400);
    });
  });

  describe('authorization request rejected before redirect (a page, no callback)', () => {
    const tryAuthorize = (params: Record<string, string>) => {
      const url = new URL(`${f.pass.url}/authorize`);
      for (const [k, v] of Object.entries({
        client_id: app.client_id,
        redirect_uri: app.redirect_uri,
        response_type: 'code',
        scope: 'openid',
        state: 's1',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        ...params,
      }))
        url.searchParams.set(k, v);
      return fetch(url, { redirect: 'manual' });
    };
    const expectPage = async (res: Response, error: string) => {
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain(`<p id="error">${error}</p>`);
    };

    it('refuses a redirect_uri that does not exactly match', async () =>
      expectPage(await tryAuthorize({ redirect_uri: `${app.redirect_uri}/x` }), 'invalid_redirect_uri'));
    it('refuses a scope not registered for the application', async () =>
      expectPage(await tryAuthorize({ scope: 'openid address' }), 'invalid_scope'));
    it('refuses an unknown scope', async () =>
      expectPage(await tryAuthorize({ scope: 'openid made-up' }), 'invalid_scope'));
    it('refuses a response_type other than code', async () =>
      expectPage(await tryAuthorize({ response_type: 'token' }), 'unsupported_response_type'));
    it('refuses a response_mode other than empty, query or web_message', async () =>
      expectPage(await tryAuthorize({ response_mode: 'fragment' }), 'unsupported_response_mode'));
    it('refuses web_message for an application without the feature', async () =>
      expectPage(await tryAuthorize({ response_mode: 'web_message' }), 'unsupported_response_mode'));
    it('refuses web_message from an origin that is not allow-listed', async () => {
      const wm = await registerApplication(f, {
        allows_web_message: true,
        allowed_web_message_origins: ['http://localhost:1'],
      });
      const url = new URL(`${f.pass.url}/authorize`);
      for (const [k, v] of Object.entries({
        client_id: wm.client_id,
        redirect_uri: wm.redirect_uri,
        response_type: 'code',
        scope: 'openid',
        response_mode: 'web_message',
      }))
        url.searchParams.set(k, v);
      await expectPage(await fetch(url, { redirect: 'manual' }), 'unsupported_response_mode');
    });
    it('accepts an alias scope and sends the browser to the sign-in page', async () => {
      const res = await tryAuthorize({ scope: 'openid identity:full' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toMatch(/\/interaction\//);
    });
  });
});
