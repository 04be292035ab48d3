import { closeDb, db, eventually } from '@kyc/testing';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
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

/**
 * Pass as any OpenID Connect library sees it: openid-client 6 and oauth4webapi 3 as relying parties, from
 * the issuer URL alone (discovery), with the id_token's signature checked through the key set; and the
 * negative cases of the OpenID Foundation's Basic OP plan.
 */
describe('pass: OpenID Connect conformance (openid-client, oauth4webapi)', () => {
  let f: PassFixture;
  let browser: Browser;
  let app: TestApplication;
  let other: TestApplication;
  let user: { email: string; phone: string };
  let config: oidc.Configuration;

  /** openid-client from the issuer URL only; signatures of the token endpoint's JWTs checked (JWKS). */
  const discover = async (a: TestApplication, auth?: oidc.ClientAuth) => {
    const c = await oidc.discovery(new URL(f.pass.url), a.client_id, a.client_secret, auth, {
      execute: [oidc.allowInsecureRequests],
    });
    oidc.enableNonRepudiationChecks(c);
    return c;
  };

  /** The browser part of the code flow (PKCE S256, nonce); the callback URL and what the RP keeps. */
  const authorize = async (c: oidc.Configuration, a: TestApplication, { withNonce = true } = {}) => {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(c, {
      redirect_uri: a.redirect_uri,
      scope: 'openid email',
      state,
      ...(withNonce ? { nonce } : {}),
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const context = await browser.newContext();
    try {
      const callback = await signInAndConsent(await context.newPage(), f.smtp, url.href, a.redirect_uri, user.email);
      return { callback, verifier, state, nonce: withNonce ? nonce : undefined };
    } finally {
      await context.close();
    }
  };

  /** The code flow to tokens with openid-client (iss, state, nonce, PKCE and id_token signature checked). */
  const codeTokens = async (c = config, a = app) => {
    const { callback, verifier, state, nonce } = await authorize(c, a);
    return oidc.authorizationCodeGrant(c, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
  };

  /** An authorization request answered without a page (an error sent back to the redirect_uri). */
  const authorizeRedirect = async (params: Record<string, string>) => {
    const url = new URL(`${f.pass.url}/authorize`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const res = await fetch(url, { redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location'), body: await res.text() };
  };

  const introspect = async (c: oidc.Configuration, token: string) => oidc.tokenIntrospection(c, token);
  const userinfo = (init: RequestInit & { path?: string } = {}) =>
    fetch(`${f.pass.url}/v1/oauth2/userinfo`, init).then(async (r) => ({
      status: r.status,
      challenge: r.headers.get('www-authenticate'),
      body: (await r.json()) as Record<string, any>,
    }));

  beforeAll(async () => {
    f = await startPass();
    browser = await launchBrowser();
    [app, other] = await Promise.all([registerApplication(f), registerApplication(f)]);
    user = await seedUser(f.operator);
    config = await discover(app);
  });

  afterAll(async () => {
    await browser?.close();
    await f?.close();
    await closeDb();
  });

  describe('discovery and key set', () => {
    it('publishes the issuer, every endpoint as served, scopes, claims, grants with CIBA, PKCE and auth methods', async () => {
      const meta = config.serverMetadata();
      const base = f.pass.url;
      expect(meta).toMatchObject({
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/v1/oauth2/token`,
        userinfo_endpoint: `${base}/v1/oauth2/userinfo`,
        jwks_uri: `${base}/v1/oauth2/jwks`,
        revocation_endpoint: `${base}/v1/oauth2/revoke`,
        introspection_endpoint: `${base}/v1/oauth2/introspect`,
        backchannel_authentication_endpoint: `${base}/v1/oauth2/bc-authorize`,
        backchannel_token_delivery_modes_supported: ['poll'],
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
        response_modes_supported: ['query', 'web_message'],
        id_token_signing_alg_values_supported: ['RS256'],
        authorization_response_iss_parameter_supported: true,
        acr_values_supported: ['urn:pass:loa:1', 'urn:pass:loa:2'],
      });
      expect(meta.grant_types_supported).toEqual(
        expect.arrayContaining(['authorization_code', 'refresh_token', 'urn:openid:params:grant-type:ciba']),
      );
      expect([...meta.token_endpoint_auth_methods_supported!].sort()).toEqual([
        'client_secret_basic',
        'client_secret_post',
        'none',
      ]);
      expect(meta.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'identity', 'documents']));
      expect(meta.scopes_supported!.some((s) => s.startsWith('document:'))).toBe(false);
      expect(meta.claims_supported).toEqual(expect.arrayContaining(['sub', 'email', 'identity_verified', 'acr']));
      // every endpoint named is served (none of them answers 404)
      for (const url of [meta.jwks_uri!, meta.userinfo_endpoint!]) expect((await fetch(url)).status).not.toBe(404);
      for (const url of [meta.token_endpoint!, meta.revocation_endpoint!, meta.introspection_endpoint!])
        expect((await fetch(url, { method: 'POST' })).status).not.toBe(404);
    });

    it('serves the same document at the RFC 8414 path', async () => {
      const [a, b] = await Promise.all(
        ['openid-configuration', 'oauth-authorization-server'].map((p) =>
          fetch(`${f.pass.url}/.well-known/${p}`).then((r) => r.json()),
        ),
      );
      expect(b).toEqual(a);
      const as = await oauth.processDiscoveryResponse(
        new URL(f.pass.url),
        await oauth.discoveryRequest(new URL(f.pass.url), { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true }),
      );
      expect(as.token_endpoint).toBe(`${f.pass.url}/v1/oauth2/token`);
    });
  });

  describe('openid-client: code + PKCE, id_token verified through the key set', () => {
    let tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;

    it('signs in from the issuer URL alone; the id_token kid is in the key set and its signature verifies', async () => {
      const { callback, verifier, state, nonce } = await authorize(config, app);
      expect(callback.searchParams.get('iss')).toBe(f.pass.url);
      tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({ iss: f.pass.url, aud: [app.client_id], nonce });
      const { kid } = decodeProtectedHeader(tokens.id_token!);
      const jwks = (await fetch(`${f.pass.url}/v1/oauth2/jwks`).then((r) => r.json())) as { keys: { kid: string }[] };
      expect(jwks.keys.map((k) => k.kid)).toContain(kid);
      await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${f.pass.url}/v1/oauth2/jwks`)), {
        issuer: f.pass.url,
        audience: app.client_id,
      });
    });

    it('serves userinfo by GET and by POST, the scheme in any case; refusals carry WWW-Authenticate', async () => {
      const sub = tokens.claims()!.sub;
      expect(await oidc.fetchUserInfo(config, tokens.access_token, sub)).toMatchObject({ sub, email: user.email });
      const post = await oidc.fetchProtectedResource(
        config,
        tokens.access_token,
        new URL(`${f.pass.url}/v1/oauth2/userinfo`),
        'POST',
      );
      expect(post.status).toBe(200);
      expect(await post.json()).toMatchObject({ sub, email: user.email });
      const form = await userinfo({
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ access_token: tokens.access_token }),
      });
      expect(form).toMatchObject({ status: 200, body: { sub } });
      for (const scheme of ['bearer', 'BEARER'])
        expect((await userinfo({ headers: { authorization: `${scheme} ${tokens.access_token}` } })).status).toBe(200);

      const none = await userinfo();
      expect(none).toMatchObject({ status: 401, challenge: 'Bearer realm="pass"' });
      expect(none.body).toMatchObject({ code: 401, error_code: 'invalid_token' });
      const bad = await userinfo({ method: 'POST', headers: { authorization: 'Bearer not-a-token' } });
      expect(bad.status).toBe(401);
      expect(bad.challenge).toMatch(/^Bearer realm="pass", error="invalid_token", error_description="/);
      const both = await userinfo({
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ access_token: tokens.access_token }),
      });
      expect(both.status).toBe(400);
      expect(both.challenge).toMatch(/error="invalid_request"/);
    });

    it('introspects its own tokens (RFC 7662); another application learns nothing about them', async () => {
      const own = await introspect(config, tokens.access_token);
      expect(own).toMatchObject({
        active: true,
        client_id: app.client_id,
        sub: tokens.claims()!.sub,
        scope: 'openid email',
        token_type: 'Bearer',
        iss: f.pass.url,
      });
      expect(await introspect(config, tokens.refresh_token!)).toMatchObject({ active: true });
      const stranger = await discover(other);
      expect(await introspect(stranger, tokens.access_token)).toEqual({ active: false });
      expect(await introspect(stranger, tokens.refresh_token!)).toEqual({ active: false });
      expect(await introspect(config, 'not-a-token')).toEqual({ active: false });
    });

    it('rotates refresh tokens with client_secret_basic, and a reused one revokes the family', async () => {
      const basic = await discover(app, oidc.ClientSecretBasic(app.client_secret));
      const first = await codeTokens();
      const rotated = await oidc.refreshTokenGrant(basic, first.refresh_token!);
      expect(rotated.refresh_token).not.toBe(first.refresh_token);
      expect(rotated.id_token).toBeUndefined();
      await expect(oidc.refreshTokenGrant(basic, first.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      await expect(oidc.refreshTokenGrant(basic, rotated.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      expect(await introspect(config, rotated.access_token)).toEqual({ active: false });
    });

    it('revokes its own tokens (RFC 7009): a refresh token takes its grant with it; another application cannot', async () => {
      const fresh = await codeTokens();
      const stranger = await discover(other);
      await expect(oidc.tokenRevocation(stranger, fresh.access_token)).rejects.toMatchObject({
        error: 'invalid_request',
      });
      expect(await introspect(config, fresh.access_token)).toMatchObject({ active: true });

      await oidc.tokenRevocation(config, tokens.access_token, { token_type_hint: 'access_token' });
      expect(await introspect(config, tokens.access_token)).toEqual({ active: false });
      expect((await userinfo({ headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
      expect(await introspect(config, tokens.refresh_token!)).toMatchObject({ active: true });

      await oidc.tokenRevocation(config, fresh.refresh_token!);
      expect(await introspect(config, fresh.refresh_token!)).toEqual({ active: false });
      expect(await introspect(config, fresh.access_token)).toEqual({ active: false });
      // an unknown or already revoked token is not an error (RFC 7009 2.2)
      await oidc.tokenRevocation(config, fresh.refresh_token!);
    });
  });

  describe('OpenID Foundation Basic OP negative cases', () => {
    it('code reuse: the second exchange fails and revokes the tokens of the first', async () => {
      const { callback, verifier, state, nonce } = await authorize(config, app);
      const checks = { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce };
      const tokens = await oidc.authorizationCodeGrant(config, callback, checks);
      await expect(oidc.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      expect(await introspect(config, tokens.access_token)).toEqual({ active: false });
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    });

    it('redirect_uri must match exactly, at the authorization request and at the exchange', async () => {
      for (const redirect of [`${app.redirect_uri}/`, `${app.redirect_uri}?x=1`, app.redirect_uri.toUpperCase()]) {
        const res = await authorizeRedirect({
          client_id: app.client_id,
          redirect_uri: redirect,
          response_type: 'code',
          scope: 'openid',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
        });
        expect(res.status).toBe(400);
        expect(res.location).toBeNull();
      }
      const { callback, verifier } = await authorize(config, app);
      const res = await fetch(`${f.pass.url}/v1/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: callback.searchParams.get('code')!,
          redirect_uri: `${app.redirect_uri}/other`,
          code_verifier: verifier,
          client_id: app.client_id,
          client_secret: app.client_secret,
        }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('nonce: echoed when sent, absent when not; a relying party expecting another refuses the id_token', async () => {
      const without = await authorize(config, app, { withNonce: false });
      const tokens = await oidc.authorizationCodeGrant(config, without.callback, {
        pkceCodeVerifier: without.verifier,
        expectedState: without.state,
      });
      expect(tokens.claims()).not.toHaveProperty('nonce');

      const sent = await authorize(config, app);
      await expect(
        oidc.authorizationCodeGrant(config, sent.callback, {
          pkceCodeVerifier: sent.verifier,
          expectedState: sent.state,
          expectedNonce: 'another-nonce',
        }),
      ).rejects.toMatchObject({
        code: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
        cause: { cause: { claim: 'nonce', expected: 'another-nonce' } },
      });
    });

    it('PKCE: required by default, S256 only, and the verifier must match', async () => {
      const base = { client_id: app.client_id, redirect_uri: app.redirect_uri, response_type: 'code', scope: 'openid' };
      const missing = await authorizeRedirect({ ...base, state: 's1' });
      const missingAt = new URL(missing.location!);
      expect(missingAt.origin + missingAt.pathname).toBe(app.redirect_uri);
      expect(missingAt.searchParams.get('error')).toBe('invalid_request');
      expect(missingAt.searchParams.get('iss')).toBe(f.pass.url);
      const plain = new URL(
        (
          await authorizeRedirect({
            ...base,
            state: 's2',
            code_challenge: 'x'.repeat(43),
            code_challenge_method: 'plain',
          })
        ).location!,
      );
      expect(plain.searchParams.get('error')).toBe('invalid_request');

      const { callback, state } = await authorize(config, app);
      await expect(
        oidc.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
          expectedState: state,
        }),
      ).rejects.toMatchObject({ error: 'invalid_grant' });
    });

    it('iss in the authorization response: a response from another issuer is refused', async () => {
      const as = await oauth.processDiscoveryResponse(
        new URL(f.pass.url),
        await oauth.discoveryRequest(new URL(f.pass.url), { [oauth.allowInsecureRequests]: true }),
      );
      const forged = new URL(`${app.redirect_uri}?code=abc&state=s1&iss=${encodeURIComponent('https://evil.example')}`);
      expect(() => oauth.validateAuthResponse(as, { client_id: app.client_id }, forged, 's1')).toThrow(/iss/);
      const missing = new URL(`${app.redirect_uri}?code=abc&state=s1`);
      expect(() => oauth.validateAuthResponse(as, { client_id: app.client_id }, missing, 's1')).toThrow(/iss/);
    });
  });

  it('oauth4webapi: a public application (no secret) signs in with PKCE from discovery', async () => {
    const registered = await f.operator.postJson('/v1/admin/applications', {
      tenant_id: 'acme',
      name: 'Acme mobile',
      redirect_uris: [`${f.rpUrl}/callback/public`],
      scopes: ['openid', 'email'],
      public_client: true,
    });
    expect(registered.status).toBe(201);
    expect(registered.body.application).toMatchObject({ public_client: true, require_pkce: true, client_secret: null });
    const client: oauth.Client = { client_id: registered.body.application.client_id };
    const redirectUri = registered.body.application.redirect_uris[0] as string;
    const insecure = { [oauth.allowInsecureRequests]: true };
    const issuer = new URL(f.pass.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));

    // without PKCE a public application is refused
    const refused = await authorizeRedirect({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      state: 's1',
    });
    expect(new URL(refused.location!).searchParams.get('error')).toBe('invalid_request');

    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email',
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(k, v);
    const context = await browser.newContext();
    const callback = await signInAndConsent(await context.newPage(), f.smtp, url.href, redirectUri, user.email);
    await context.close();

    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      redirectUri,
      verifier,
      insecure,
    );
    const result = await oauth.processAuthorizationCodeResponse(as, client, response, {
      expectedNonce: nonce,
      requireIdToken: true,
    });
    await oauth.validateApplicationLevelSignature(as, response, insecure);
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    expect(claims).toMatchObject({ iss: f.pass.url, nonce });

    const info = await oauth.processUserInfoResponse(
      as,
      client,
      claims.sub,
      await oauth.userInfoRequest(as, client, result.access_token, insecure),
    );
    expect(info).toMatchObject({ sub: claims.sub, email: user.email });
    const introspection = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, oauth.None(), result.access_token, insecure),
    );
    expect(introspection).toMatchObject({ active: true, client_id: client.client_id });
    // a browser app may call the endpoints from the origin of its redirect URIs (CORS), a confidential one not
    const fromBrowser = (clientId: string, token: string) =>
      fetch(`${f.pass.url}/v1/oauth2/introspect`, {
        method: 'POST',
        headers: { origin: f.rpUrl, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: clientId, token }),
      });
    const cors = await fromBrowser(client.client_id, result.access_token);
    expect(cors.status).toBe(200);
    expect(cors.headers.get('access-control-allow-origin')).toBe(f.rpUrl);
    const confidential = await fromBrowser(app.client_id, result.access_token);
    expect(confidential.headers.get('access-control-allow-origin')).toBeNull();

    const revoked = await oauth.revocationRequest(as, client, oauth.None(), result.refresh_token!, insecure);
    await oauth.processRevocationResponse(revoked);
    expect(
      await oauth.processIntrospectionResponse(
        as,
        client,
        await oauth.introspectionRequest(as, client, oauth.None(), result.access_token, insecure),
      ),
    ).toEqual({ active: false });
  });

  it('rotates the signing key with overlap: new id_tokens carry the new kid, earlier ones still verify (CIBA poll)', async () => {
    const earlier = await codeTokens();
    const before = decodeProtectedHeader(earlier.id_token!).kid;
    const rotated = await f.operator.postJson('/v1/admin/signing-keys/rotate', {});
    expect(rotated.status).toBe(200);
    expect(rotated.body.retired).toContain(before);
    const jwks = (await fetch(`${f.pass.url}/v1/oauth2/jwks`).then((r) => r.json())) as { keys: { kid: string }[] };
    expect(jwks.keys[0].kid).toBe(rotated.body.kid);
    expect(jwks.keys.map((k) => k.kid)).toContain(before);
    await jwtVerify(earlier.id_token!, createRemoteJWKSet(new URL(`${f.pass.url}/v1/oauth2/jwks`)), {
      issuer: f.pass.url,
    });
    // the overlap (one hour) of the retired key is made to be over: it leaves the key set (checked below)
    await db().query(`UPDATE pass.signing_keys SET retired_at = now() - interval '61 minutes' WHERE kid = $1`, [
      before,
    ]);

    // CIBA poll by a relying party discovering pass now: its id_token (new key) verifies through the key set
    const fresh = await discover(app);
    const started = await oidc.initiateBackchannelAuthentication(fresh, {
      scope: 'openid email',
      login_hint: user.email,
    });
    const messages = await eventually(async () => {
      const res = await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(user.phone)}`);
      if (!res.body.messages.length) throw new Error('no message yet');
      return res.body.messages as { text: string }[];
    });
    const page = await browser.newPage();
    await page.goto(/(https?:\/\/\S+)/.exec(messages[messages.length - 1].text)![1]);
    await page.click('#approve');
    await page.waitForSelector('#outcome');
    await page.close();
    const tokens = await oidc.pollBackchannelAuthenticationGrant(fresh, started);
    expect(decodeProtectedHeader(tokens.id_token!).kid).toBe(rotated.body.kid);
    await eventually(
      async () => {
        const set = (await fetch(`${f.pass.url}/v1/oauth2/jwks`).then((r) => r.json())) as { keys: { kid: string }[] };
        expect(set.keys.map((k) => k.kid)).not.toContain(before);
        expect(set.keys.map((k) => k.kid)).toContain(rotated.body.kid);
      },
      { timeoutMs: 15_000, intervalMs: 500 },
    );
    expect(decode(tokens.id_token!)).toMatchObject({
      'urn:openid:params:jwt:claim:auth_req_id': started.auth_req_id,
    });
  }, 60_000);
});
