import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Response schemas and examples of pass's API (wire names of spec 3). */
const str = (description?: string, extra: SchemaObject = {}): SchemaObject => ({
  type: 'string',
  ...(description ? { description } : {}),
  ...extra,
});
const arr = (items: SchemaObject): SchemaObject => ({ type: 'array', items });
const obj = (properties: Record<string, SchemaObject>, required: string[] = []): SchemaObject => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
});

export const APPLICATION_SCHEMA = obj(
  {
    client_id: str('pc_ + 24 hex'),
    tenant_id: str(),
    name: str(),
    redirect_uris: arr(str()),
    scopes: arr(str('a scope of the Scopes table, aliases stored in their flat form')),
    restricted_scopes: arr(str()),
    allows_web_message: { type: 'boolean' },
    allowed_web_message_origins: arr(str()),
    allowed_email_domains: arr(str()),
    required_acr: str('urn:pass:loa:1 or urn:pass:loa:2', { nullable: true }),
    max_auth_age: { type: 'integer', nullable: true },
    ciba_enabled: { type: 'boolean' },
    public_client: { type: 'boolean', description: 'no secret; token_endpoint_auth_method none; PKCE required' },
    require_pkce: { type: 'boolean', description: 'authorization requests must carry a PKCE S256 code_challenge' },
    created_at: str(undefined, { format: 'date-time' }),
    updated_at: str(undefined, { format: 'date-time' }),
  },
  ['client_id', 'tenant_id', 'name', 'redirect_uris', 'scopes', 'ciba_enabled', 'created_at', 'updated_at'],
);

export const APPLICATION_EXAMPLE = {
  client_id: 'pc_5b0c2f6d8e1a4b7c9d0e1f2a',
  tenant_id: 'acme',
  name: 'Acme web',
  redirect_uris: ['https://acme.example/callback'],
  scopes: ['openid', 'email', 'identity', 'documents'],
  restricted_scopes: ['validations:write'],
  allows_web_message: true,
  allowed_web_message_origins: ['https://acme.example'],
  allowed_email_domains: ['acme.example'],
  required_acr: 'urn:pass:loa:2',
  max_auth_age: 3600,
  ciba_enabled: true,
  public_client: false,
  require_pkce: true,
  created_at: '2026-11-25T07:00:00.000Z',
  updated_at: '2026-11-25T07:00:00.000Z',
};

export const APPLICATION_WITH_SECRET_SCHEMA = obj(
  {
    application: { allOf: [APPLICATION_SCHEMA, obj({ client_secret: str('shown once; null for a public client', { nullable: true }) }, ['client_secret'])] },
    self: str(),
  },
  ['application', 'self'],
);

export const APPLICATION_WITH_SECRET_EXAMPLE = {
  application: { ...APPLICATION_EXAMPLE, client_secret: 'ps_Qm9vZ2xlLWFjbWUtc2VjcmV0LXNob3duLW9uY2U' },
  self: '/v1/admin/applications/pc_5b0c2f6d8e1a4b7c9d0e1f2a',
};

export const USER_SCHEMA = obj(
  {
    user: obj({
      id: str(undefined, { format: 'uuid' }),
      email: str(),
      phone_number: str(undefined, { nullable: true }),
      phone_verified: { type: 'boolean' },
    }),
  },
  ['user'],
);

export const TOKEN_RESPONSE_SCHEMA = obj(
  {
    access_token: str(),
    token_type: str('Bearer'),
    expires_in: { type: 'integer', example: 3600 },
    scope: str(),
    refresh_token: str('not on the CIBA grant'),
    id_token: str('only with openid; on authorization_code and CIBA, never on refresh'),
  },
  ['access_token', 'token_type', 'expires_in', 'scope'],
);

export const TOKEN_RESPONSE_EXAMPLE = {
  access_token: 'Yp2m9V0tJ0Qw3p1bX0Q3u9nq6dGq1e5m8N1o0b2c3d4',
  token_type: 'Bearer',
  expires_in: 3600,
  scope: 'openid email identity',
  refresh_token: 'r8Jx0pL2u1m4Vq6nC9s3k5h7f0d2a4b6e8g1i3j5k7',
  id_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjNmYjEifQ.eyJzdWIiOiI1ZjFkIn0.c2lnbmF0dXJl',
};

export const OAUTH_ERROR_SCHEMA = obj({ error: str(), error_description: str() }, ['error']);

export const USERINFO_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['sub'],
  additionalProperties: true,
  description: 'The claims of the granted scopes (Scopes table); empty claims are omitted',
  properties: { sub: str('stable user identifier') },
};

export const USERINFO_EXAMPLE = {
  sub: '5f1d7c2e-0b7a-4c1e-9d4f-2a6b8c0e1f3a',
  email: 'ana@example.com',
  email_verified: true,
  identity_verified: true,
  verification_level: 'high',
  given_name: 'Ana',
  family_name: 'Gómez',
  birthdate: '1990-04-01',
  nationality: 'CO',
  document_number: '1020304050',
  document_type: 'national-id',
  is_risky: false,
  was_manually_reviewed: false,
};

export const EXTERNAL_VALIDATION_SCHEMA = obj(
  {
    validation_id: str(undefined, { format: 'uuid' }),
    type: str('document or face'),
    resource_id: str(),
    verified: { type: 'boolean' },
    resource_url: str(),
    process_id: str(),
    document: { type: 'object', additionalProperties: true },
    face: { type: 'object', additionalProperties: true },
    created_at: str(undefined, { format: 'date-time' }),
  },
  ['validation_id', 'type', 'resource_id', 'verified', 'created_at'],
);

export const DISCOVERY_SCHEMA: SchemaObject = {
  ...obj(
    {
      issuer: str('the `iss` of every id_token; the base URL of discovery'),
      authorization_endpoint: str(),
      token_endpoint: str(),
      userinfo_endpoint: str(),
      jwks_uri: str(),
      revocation_endpoint: str(),
      introspection_endpoint: str(),
      backchannel_authentication_endpoint: str(),
      backchannel_token_delivery_modes_supported: arr(str()),
      backchannel_user_code_parameter_supported: { type: 'boolean' },
      scopes_supported: arr(str()),
      claims_supported: arr(str()),
      grant_types_supported: arr(str()),
      response_types_supported: arr(str()),
      response_modes_supported: arr(str()),
      code_challenge_methods_supported: arr(str()),
      token_endpoint_auth_methods_supported: arr(str()),
      id_token_signing_alg_values_supported: arr(str()),
      subject_types_supported: arr(str()),
      acr_values_supported: arr(str()),
      authorization_response_iss_parameter_supported: { type: 'boolean' },
    },
    ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri', 'response_types_supported'],
  ),
  additionalProperties: true,
};

export const DISCOVERY_EXAMPLE = {
  issuer: 'https://pass.example.com',
  authorization_endpoint: 'https://pass.example.com/authorize',
  token_endpoint: 'https://pass.example.com/v1/oauth2/token',
  userinfo_endpoint: 'https://pass.example.com/v1/oauth2/userinfo',
  jwks_uri: 'https://pass.example.com/v1/oauth2/jwks',
  revocation_endpoint: 'https://pass.example.com/v1/oauth2/revoke',
  introspection_endpoint: 'https://pass.example.com/v1/oauth2/introspect',
  backchannel_authentication_endpoint: 'https://pass.example.com/v1/oauth2/bc-authorize',
  backchannel_token_delivery_modes_supported: ['poll'],
  backchannel_user_code_parameter_supported: false,
  scopes_supported: ['openid', 'email', 'phone', 'profile', 'identity', '…'],
  claims_supported: ['sub', 'iss', 'aud', 'email', 'email_verified', '…'],
  grant_types_supported: ['authorization_code', 'refresh_token', 'urn:openid:params:grant-type:ciba'],
  response_types_supported: ['code'],
  response_modes_supported: ['query', 'web_message'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
  id_token_signing_alg_values_supported: ['RS256'],
  subject_types_supported: ['public'],
  acr_values_supported: ['urn:pass:loa:1', 'urn:pass:loa:2'],
  authorization_response_iss_parameter_supported: true,
};

export const INTROSPECTION_SCHEMA = obj(
  {
    active: { type: 'boolean' },
    client_id: str('the application the token was issued to (always the caller)'),
    sub: str(),
    scope: str(),
    token_type: str('Bearer (access tokens)'),
    exp: { type: 'integer' },
    iat: { type: 'integer' },
    iss: str(),
  },
  ['active'],
);

export const INTROSPECTION_EXAMPLE = {
  active: true,
  client_id: 'pc_5b0c2f6d8e1a4b7c9d0e1f2a',
  sub: '3f0c2a4e-8b1d-4c6e-9f2a-1b3c5d7e9f00',
  scope: 'openid email',
  token_type: 'Bearer',
  exp: 1795000000,
  iat: 1794996400,
  iss: 'https://pass.example.com',
};
