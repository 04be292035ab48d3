import type { KoaContextWithOIDC } from 'oidc-provider';

import { BASE_SCOPES, RESTRICTED_SCOPES } from '../scopes/scopes';
import { DISCOVERY_PATHS, PROVIDER_ROUTES } from './provider.configuration';

/** The claims of the id_token (spec 3, "Tokens"). */
const ID_TOKEN_CLAIMS = ['sub', 'iss', 'aud', 'exp', 'iat', 'jti', 'auth_time', 'acr', 'amr', 'nonce'];

/** The claims userinfo serves, per the Scopes table (users/user-claims.ts). */
const USERINFO_CLAIMS = [
  'email',
  'email_verified',
  'phone_number',
  'phone_number_verified',
  'preferred_communication_method',
  'name',
  'first_name',
  'last_name',
  'gender',
  'birthdate',
  'nationality',
  'updated_at',
  'identity_verified',
  'verification_level',
  'given_name',
  'family_name',
  'document_number',
  'document_type',
  'issuing_authority',
  'is_risky',
  'was_manually_reviewed',
  'document_expired',
  'expiration_date',
  'documents',
  'age_verified',
  'is_minor',
  'age_range',
  'address',
  'trust_level',
  'background_verified',
  'verification_badges',
  'manual_verification_status',
  'face_enrolled',
  'last_face_verification_date',
  'liveness_check_passed',
  'face_match_confidence',
  'quality_level',
  'verification_method',
  'verification_status',
  'verification_date',
  'verification_methods',
  'thirdparty_tokens',
  'thirdparty_tokens_status',
];

/**
 * Koa middleware around oidc-provider's discovery document: it states what pass serves.
 * - Every endpoint is named under the issuer (oidc-provider builds them from the request's host, which behind
 *   an internal address or a proxy is not the public one).
 * - Its own userinfo endpoint (pass serves it, GET and POST) and the claims it serves.
 * - Its flat scopes: oidc-provider would list every scope it is configured with, the 8,000
 *   `document:<country>:<type>` combinations among them (they are documented instead).
 * - The response modes the authorization page accepts, and no `user_code` (CIBA requests take none).
 */
export function discoveryMiddleware(issuer: string) {
  issuer = issuer.replace(/\/+$/, '');
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    if (ctx.method !== 'GET' || !DISCOVERY_PATHS.includes(ctx.path) || ctx.status !== 200) return;
    const body = ctx.body as Record<string, unknown>;
    for (const [key, value] of Object.entries(body))
      if ((key.endsWith('_endpoint') || key === 'jwks_uri') && typeof value === 'string')
        body[key] = `${issuer}${new URL(value).pathname}`;
    Object.assign(body, {
      userinfo_endpoint: `${issuer}${PROVIDER_ROUTES.userinfo}`,
      scopes_supported: [...BASE_SCOPES, ...RESTRICTED_SCOPES],
      claims_supported: [...new Set([...ID_TOKEN_CLAIMS, ...USERINFO_CLAIMS])],
      response_modes_supported: ['query', 'web_message'],
      backchannel_user_code_parameter_supported: false,
      userinfo_signing_alg_values_supported: undefined,
    });
  };
}
