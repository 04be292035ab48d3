import type { IncomingMessage } from 'node:http';

import { envelope } from '@kyc/platform';
import type { KoaContextWithOIDC } from 'oidc-provider';

import { OidcModelStore } from './oidc-model.store';
import { CIBA_GRANT, CIBA_INTERVAL, PROVIDER_ROUTES } from './provider.configuration';
import { TokenRequestUnit, tokenRequestUnit } from './token-request-unit';

/** What the mount leaves on the raw request: the body Fastify parsed, and whether it came as JSON. */
export interface MountedRequest extends IncomingMessage {
  body?: Record<string, unknown>;
  passJson?: boolean;
}

type Body = Record<string, unknown>;

/**
 * Koa middleware around oidc-provider's own (its documented pre/post middleware): the spec's answers of the
 * token and bc-authorize endpoints.
 * - JSON authorization_code grant: errors in the service envelope (401 bad_credentials, 400 validation_error).
 * - authorization_code and refresh_token grants run as one unit of work (TokenRequestUnit): two statements.
 * - CIBA grant: `interval` enforced (slow_down); unknown or redeemed auth_req_id answer expired_token.
 * (The id_token has the Tokens table's shape from the start, and none on refresh: issueSpecIdTokens.)
 * - bc-authorize answers carry `interval`.
 */
export function tokenEndpointMiddleware(deps: { store: OidcModelStore; now: () => Date }) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (ctx.method !== 'POST') return next();
    if (ctx.path === PROVIDER_ROUTES.backchannel_authentication) {
      await next();
      if (ctx.status === 200 && ctx.body && typeof ctx.body === 'object') (ctx.body as Body).interval = CIBA_INTERVAL;
      return;
    }
    if (ctx.path !== PROVIDER_ROUTES.token) return next();
    const req = ctx.req as MountedRequest;
    const grantType = req.body?.grant_type;
    if (grantType === CIBA_GRANT && typeof req.body?.auth_req_id === 'string') {
      if (!(await deps.store.pollAllowed(req.body.auth_req_id, deps.now(), CIBA_INTERVAL * 1000))) {
        ctx.status = 400;
        ctx.body = { error: 'slow_down', error_description: `poll no faster than every ${CIBA_INTERVAL} seconds` };
        return;
      }
    }
    if (grantType === 'authorization_code' || grantType === 'refresh_token') await runAsUnit(ctx, next, deps.store);
    else await next();
    const body = ctx.body as Body | undefined;
    if (!body || typeof body !== 'object' || ctx.status < 400) return;
    if (grantType === 'authorization_code' && req.passJson) {
      const description = typeof body.error_description === 'string' ? body.error_description : '';
      ctx.body =
        ctx.status === 401 || body.error === 'invalid_client'
          ? envelope(401, 'invalid client credentials', 'bad_credentials')
          : envelope(
              400,
              `invalid or expired code, or invalid client or redirect_uri (${description})`,
              'validation_error',
            );
      ctx.status = ctx.status === 401 || body.error === 'invalid_client' ? 401 : 400;
    } else if (body.error === 'invalid_request' && /grant type is not allowed/.test(String(body.error_description))) {
      ctx.body = { error: 'unauthorized_client', error_description: 'the application may not use this grant type' };
    } else if (
      grantType === CIBA_GRANT &&
      body.error === 'invalid_grant' &&
      (await deps.store.cibaRequestGone(String(req.body?.auth_req_id)))
    ) {
      ctx.body = { error: 'expired_token', error_description: 'unknown, expired or already redeemed auth_req_id' };
    }
  };
}

/**
 * Runs a grant as a unit of work and commits it before the answer leaves: the consumption always (a code
 * redeemed by a request that then failed stays used, as when it was written at once), the new tokens only
 * with a successful answer. A lost race (the code or token was consumed meanwhile) turns the answer into
 * the `invalid_grant` oidc-provider gives for it.
 */
async function runAsUnit(ctx: KoaContextWithOIDC, next: () => Promise<void>, store: OidcModelStore): Promise<void> {
  const unit = new TokenRequestUnit();
  try {
    await tokenRequestUnit.run(unit, next);
  } catch (err) {
    if (unit.consume) await store.commitTokenRequest(unit, false);
    throw err;
  }
  if (!unit.pending) return;
  if (await store.commitTokenRequest(unit, ctx.status < 400)) return;
  ctx.status = 400;
  ctx.body = { error: 'invalid_grant', error_description: 'grant request is invalid' };
}
