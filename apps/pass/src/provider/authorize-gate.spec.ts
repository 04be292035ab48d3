import { ApplicationEntity } from '../applications/application.entity';
import { checkAuthorizeRequest } from './authorize-gate';

const app = Object.assign(new ApplicationEntity(), {
  clientId: 'pc_000000000000000000000001',
  redirectUris: ['https://acme.example/cb', 'https://acme.example'],
  scopes: ['openid', 'email', 'documents'],
  restrictedScopes: [],
  allowsWebMessage: true,
  allowedWebMessageOrigins: ['https://acme.example'],
});
const base = {
  client_id: app.clientId,
  redirect_uri: 'https://acme.example/cb',
  response_type: 'code',
  scope: 'openid email',
};

describe('checkAuthorizeRequest (rejected before redirect)', () => {
  it('accepts a registered request and normalizes aliases', () => {
    expect(
      checkAuthorizeRequest(
        { ...base, scope: 'openid contact:full email' },
        {
          ...app,
          scopes: [...app.scopes, 'contact'],
        },
      ),
    ).toEqual({
      ok: true,
      scope: 'openid contact email',
    });
  });

  it.each([
    ['an unknown client', {}, undefined, 'invalid_client'],
    [
      'a redirect_uri that is only a prefix',
      { redirect_uri: 'https://acme.example/cb/x' },
      app,
      'invalid_redirect_uri',
    ],
    ['response_type token', { response_type: 'token' }, app, 'unsupported_response_type'],
    ['response_mode fragment', { response_mode: 'fragment' }, app, 'unsupported_response_mode'],
    ['an unregistered scope', { scope: 'openid phone' }, app, 'invalid_scope'],
    ['a repeated parameter', { scope: ['openid', 'email'] }, app, 'invalid_request'],
  ])('refuses %s', (_what, over, application, error) => {
    expect(checkAuthorizeRequest({ ...base, ...over }, application as ApplicationEntity | undefined)).toMatchObject({
      ok: false,
      error,
    });
  });

  it('accepts web_message only from an allow-listed origin', () => {
    expect(
      checkAuthorizeRequest({ ...base, redirect_uri: 'https://acme.example', response_mode: 'web_message' }, app).ok,
    ).toBe(true);
    expect(
      checkAuthorizeRequest(
        { ...base, response_mode: 'web_message' },
        {
          ...app,
          allowsWebMessage: false,
        },
      ),
    ).toMatchObject({ ok: false, error: 'unsupported_response_mode' });
  });

  it('covers document filters by a registered documents scope', () => {
    expect(checkAuthorizeRequest({ ...base, scope: 'openid document:co:passport' }, app).ok).toBe(true);
  });
});
