import type { KoaContextWithOIDC } from 'oidc-provider';

import { discoveryMiddleware } from './discovery';

describe('discoveryMiddleware', () => {
  const run = async (path: string, body: Record<string, unknown>) => {
    const ctx = { method: 'GET', path, status: 200, body } as unknown as KoaContextWithOIDC;
    await discoveryMiddleware('https://pass.example.com/')(ctx, () => Promise.resolve());
    return ctx.body as Record<string, unknown>;
  };

  it('names every endpoint under the issuer, whatever host the request came to', async () => {
    const body = await run('/.well-known/openid-configuration', {
      issuer: 'https://pass.example.com',
      token_endpoint: 'http://pass:4006/v1/oauth2/token',
      revocation_endpoint: 'http://pass:4006/v1/oauth2/revoke',
      jwks_uri: 'http://pass:4006/v1/oauth2/jwks',
      scopes_supported: ['openid', 'document:co:passport'],
      backchannel_user_code_parameter_supported: true,
    });
    expect(body).toMatchObject({
      issuer: 'https://pass.example.com',
      token_endpoint: 'https://pass.example.com/v1/oauth2/token',
      revocation_endpoint: 'https://pass.example.com/v1/oauth2/revoke',
      jwks_uri: 'https://pass.example.com/v1/oauth2/jwks',
      userinfo_endpoint: 'https://pass.example.com/v1/oauth2/userinfo',
      response_modes_supported: ['query', 'web_message'],
      backchannel_user_code_parameter_supported: false,
    });
    expect(body.scopes_supported).toContain('identity');
    expect(body.scopes_supported).not.toContain('document:co:passport');
    expect(body.claims_supported).toEqual(expect.arrayContaining(['sub', 'nonce', 'email', 'identity_verified']));
  });

  it('leaves other paths alone', async () => {
    expect(await run('/v1/oauth2/token', { access_token: 'x' })).toEqual({ access_token: 'x' });
  });
});
