import { createHmac } from 'node:crypto';

import { Clock } from '@kyc/platform';
import type { AdapterPayload, Configuration, KoaContextWithOIDC } from 'oidc-provider';

import { ApplicationEntity } from '../applications/application.entity';
import { ACR_VALUES } from '../applications/dto/application-fields';
import { PassConfig } from '../config/pass.config';
import { PrivateJwk } from '../keys/signing-keys.service';
import { MessageNotDelivered, PhoneMessenger } from '../messaging/phone-messenger';
import { expiredPage, genericErrorPage, pageContext, PASS_PAGE_HEADERS } from '../pages/pass-page';
import {
  BASE_SCOPES,
  DOCUMENT_TYPES,
  isSensitive,
  normalizeScope,
  parseScopes,
  RESTRICTED_SCOPES,
} from '../scopes/scopes';
import { PassUserEntity } from '../users/pass-user.entity';
import { AuthorizationDetail, InvalidAuthorizationDetails, parseAuthorizationDetails } from './authorization-details';
import { OidcModelStore } from './oidc-model.store';
import type { OidcProviderModule } from './oidc-provider.loader';
import { postgresAdapter } from './postgres.adapter';
import { tokenRequestUnit } from './token-request-unit';

export const CIBA_GRANT = 'urn:openid:params:grant-type:ciba';

/**
 * Paths of the provider: spec 3's (authorization, token, bc-authorize) and the standard surface beside them
 * (revocation, introspection). The key set and userinfo are pass's own routes (JwksController,
 * UserinfoController); the provider only names them in its discovery document.
 */
export const PROVIDER_ROUTES = {
  authorization: '/authorize',
  token: '/v1/oauth2/token',
  backchannel_authentication: '/v1/oauth2/bc-authorize',
  revocation: '/v1/oauth2/revoke',
  introspection: '/v1/oauth2/introspect',
  jwks: '/v1/oauth2/jwks',
  userinfo: '/v1/oauth2/userinfo',
} as const;

/** Where the discovery document is served (OpenID Connect Discovery 1.0 and RFC 8414). */
export const DISCOVERY_PATHS = ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server'];

/** Client authentication at the token, bc-authorize, revocation and introspection endpoints. */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;

export const TTL = {
  AuthorizationCode: 600,
  AccessToken: 3600,
  IdToken: 300,
  RefreshToken: 365 * 24 * 3600,
  Grant: 365 * 24 * 3600,
  BackchannelAuthenticationRequest: 600,
  Interaction: 3600,
  Session: 14 * 24 * 3600,
} as const;

/**
 * oidc-provider 8 refuses `authorization_details` at bc-authorize (its RAR feature covers the authorization and
 * token endpoints only), so pass hands the parameter to it under this name and checks it itself.
 */
export const AUTHORIZATION_DETAILS_PARAM = 'pass_authorization_details';

/** Renames a bc-authorize request's `authorization_details` (a value sent under the internal name is dropped). */
export function passAuthorizationDetails(body: Record<string, unknown>): void {
  delete body[AUTHORIZATION_DETAILS_PARAM];
  if (body.authorization_details === undefined) return;
  body[AUTHORIZATION_DETAILS_PARAM] = body.authorization_details;
  delete body.authorization_details;
}

/** Seconds a CIBA client must wait between two polls (returned as `interval`). */
export const CIBA_INTERVAL = 5;

export interface ProviderDeps {
  config: PassConfig;
  clock: Clock;
  store: OidcModelStore;
  keys: PrivateJwk[];
  cookieKey: string;
  findApplication(clientId: string): Promise<ApplicationEntity | undefined>;
  clientSecret(application: ApplicationEntity): string;
  findUserById(id: string): Promise<PassUserEntity | null>;
  /** True when the person exists (every token response checks it: one primary-key lookup). */
  accountExists(id: string): Promise<boolean>;
  findUserByEmail(email: string): Promise<PassUserEntity | null>;
  messenger: PhoneMessenger;
  /** The approval page link of a CIBA request (signed so that only the user's message carries it). */
  approvalLink(authReqId: string): string;
  /** Why staged attachments cannot be used by this application and approver, or null. */
  unusableAttachments(clientId: string, loginHint: string, keys: string[]): Promise<string | null>;
}

/** Every `document:<country>:<type>` scope (oidc-provider grants only scopes it knows). */
function documentScopes(): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const countries = ['ALL'];
  for (const a of letters) for (const b of letters) countries.push(a + b);
  return countries.flatMap((c) => ['ALL', ...DOCUMENT_TYPES].map((t) => `document:${c}:${t}`));
}

/** The oidc-provider client metadata of an application. */
export function clientMetadata(application: ApplicationEntity, secret: string | undefined): AdapterPayload {
  return {
    client_id: application.clientId,
    // A public client has no secret (PKCE stands in for it); a confidential one sends it in the body
    // (client_secret_post, spec 3) or in an HTTP Basic header (client_secret_basic): both are accepted.
    ...(application.publicClient ? { token_endpoint_auth_method: 'none' } : { client_secret: secret }),
    ...(application.publicClient ? {} : { token_endpoint_auth_method: 'client_secret_post' }),
    require_pkce: application.publicClient || application.requirePkce,
    client_name: application.name,
    redirect_uris: application.redirectUris,
    response_types: ['code'],
    grant_types: ['authorization_code', 'refresh_token', ...(application.cibaEnabled ? [CIBA_GRANT] : [])],
    // Signed once, RS256 with the provider's key, in the Tokens table's shape (issueSpecIdTokens).
    id_token_signed_response_alg: 'RS256',
    scope: [...new Set([...application.scopes.map(normalizeScope), ...application.restrictedScopes])].join(' '),
    ...(application.cibaEnabled ? { backchannel_token_delivery_mode: 'poll' } : {}),
    ...(application.maxAuthAge ? { default_max_age: application.maxAuthAge } : {}),
  };
}

/** The configuration of pass's provider: storage, clients, accounts, lifetimes, CIBA, pages. */
export function providerConfiguration(oidc: OidcProviderModule, deps: ProviderDeps): Configuration {
  const { errors } = oidc;
  const unknownUser = (hint: string) =>
    new errors.UnknownUserId(`login_hint ${hint.slice(0, 80)} does not resolve to a user`);

  return {
    adapter: postgresAdapter({
      store: deps.store,
      clock: deps.clock,
      findClient: async (clientId) => {
        const application = await deps.findApplication(clientId);
        if (!application) return undefined;
        return clientMetadata(application, application.publicClient ? undefined : deps.clientSecret(application));
      },
      alreadyConsumed: (model) =>
        new errors.InvalidGrant(
          model === 'RefreshToken' ? 'refresh token invalidated by a concurrent refresh' : `${model} already used`,
        ),
    }),
    jwks: { keys: deps.keys },
    cookies: { keys: [deps.cookieKey], long: { signed: true }, short: { signed: true } },
    routes: PROVIDER_ROUTES,
    scopes: [...BASE_SCOPES, ...RESTRICTED_SCOPES, ...documentScopes()],
    claims: { openid: ['sub', 'acr', 'amr', 'auth_time'] },
    acrValues: [...ACR_VALUES],
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    clientAuthMethods: [...CLIENT_AUTH_METHODS],
    extraClientMetadata: { properties: ['require_pkce'] },
    // A browser may call the token, revocation and introspection endpoints only for a public application
    // (a single-page app has no server), from the origin of one of its redirect URIs.
    clientBasedCORS: (_ctx, origin, client) =>
      client.clientAuthMethod === 'none' && (client.redirectUris ?? []).some((uri) => new URL(uri).origin === origin),
    conformIdTokenClaims: true,
    // S256 only; required for public clients and for applications with require_pkce (the default).
    pkce: { required: (_ctx, client) => client.metadata().require_pkce === true, methods: ['S256'] },
    responseTypes: ['code'],
    ttl: { ...TTL },
    rotateRefreshToken: true,
    issueRefreshToken: (ctx, client) =>
      Promise.resolve(client.grantTypeAllowed('refresh_token') && ctx.oidc.params?.grant_type !== CIBA_GRANT),
    expiresWithSession: () => Promise.resolve(false),
    extraParams: {
      // also on bc-authorize: the language of the approval message and page (ui_locales, else Spanish)
      ui_locales: () => undefined,
      async [AUTHORIZATION_DETAILS_PARAM](
        ctx: KoaContextWithOIDC,
        value: string | undefined,
        client?: { clientId: string },
      ) {
        if (value === undefined || value === '') return;
        let details: AuthorizationDetail[];
        try {
          details = parseAuthorizationDetails(value);
        } catch (err) {
          if (err instanceof InvalidAuthorizationDetails) throw new errors.InvalidRequest(err.message);
          throw err;
        }
        const keys = details.flatMap((d) => d.attachments.map((a) => a.s3_key));
        const loginHint = ctx.oidc.params?.login_hint;
        if (!keys.length) return;
        if (typeof loginHint !== 'string')
          throw new errors.InvalidRequest('attachments are only for CIBA requests (bc-authorize)');
        const unusable = await deps.unusableAttachments(client!.clientId, loginHint, keys);
        if (unusable) throw new errors.InvalidRequest(unusable);
      },
    },
    async findAccount(_ctx, sub) {
      // Within a token grant, whether the account exists was read with the code or token.
      const exists = tokenRequestUnit.getStore()?.accounts.get(sub) ?? (await deps.accountExists(sub));
      if (!exists) return undefined;
      // The id_token carries sub (and acr, amr, auth_time); verified claims come from /v1/oauth2/userinfo.
      return { accountId: sub, claims: () => ({ sub }) };
    },
    // client_id and ui_locales let the "expired" page name the application in the person's language when they
    // come back to a sign-in that is over (Back after consent: the interaction and its cookie are gone).
    interactions: {
      url: (_ctx, interaction) => {
        const { client_id, ui_locales } = interaction.params;
        const query = new URLSearchParams({ client_id: typeof client_id === 'string' ? client_id : '' });
        if (typeof ui_locales === 'string') query.set('ui_locales', ui_locales);
        return `/interaction/${interaction.uid}?${query}`;
      },
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      // RFC 7009 / RFC 7662 for the application's own tokens: oidc-provider refuses to revoke another
      // client's token; its default introspection policy would let any confidential client read any token
      // (`active: true` with its subject and scope), so only the application the token was issued to may.
      revocation: { enabled: true },
      introspection: {
        enabled: true,
        allowedPolicy: (_ctx: KoaContextWithOIDC, client: { clientId: string }, token: { clientId?: string }) =>
          Promise.resolve(token.clientId === client.clientId),
      },
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      webMessageResponseMode: { enabled: true, ack: 'individual-draft-01' },
      ciba: {
        enabled: true,
        deliveryModes: ['poll'],
        async processLoginHint(_ctx: KoaContextWithOIDC, loginHint: string) {
          if (!/^[^\s@]+@[^\s@]+$/.test(loginHint)) throw unknownUser(loginHint);
          const user = await deps.findUserByEmail(loginHint);
          if (!user) throw unknownUser(loginHint);
          if (!user.phoneNumber || !user.phoneVerified)
            throw new errors.InvalidRequest('the user has no verified phone to approve the request on');
          return user.id;
        },
        validateBindingMessage(ctx: KoaContextWithOIDC, bindingMessage?: string) {
          const scopes = parseScopes(ctx.oidc.params?.scope as string | undefined);
          if (!bindingMessage && scopes.some(isSensitive))
            throw new errors.InvalidRequest(
              'binding_message is required with sensitive scopes (documents, background)',
            );
          if (bindingMessage && (bindingMessage.length > 100 || /[\p{Cc}]/u.test(bindingMessage)))
            throw new errors.InvalidBindingMessage('binding_message must be at most 100 printable characters');
          return Promise.resolve();
        },
        validateRequestContext: () => Promise.resolve(undefined),
        verifyUserCode: () => Promise.resolve(undefined),
        async triggerAuthenticationDevice(_ctx, request, account) {
          const user = await deps.findUserById(account.accountId);
          const application = await deps.findApplication(String(request.clientId));
          const link = deps.approvalLink(String(request.jti));
          const message = request.params?.binding_message;
          try {
            await deps.messenger.send(
              user!.phoneNumber!,
              approvalText(
                application,
                typeof message === 'string' ? message : undefined,
                link,
                request.params?.ui_locales,
              ),
            );
          } catch (err) {
            if (!(err instanceof MessageNotDelivered)) throw err;
            await request.destroy();
            const unavailable = new errors.CustomOIDCProviderError(
              'notifier_unavailable',
              'approval message not delivered; retry later',
            );
            Object.assign(unavailable, { status: 503, statusCode: 503, expose: true });
            throw unavailable;
          }
        },
      },
    },
    // A refusal oidc-provider shows instead of redirecting: a page in the person's language. A sign-in that
    // is over or unknown (Back after consent, the resume link without its cookie) is the "expired" page.
    async renderError(ctx, out, error) {
      // The resume link (/authorize/:uid) opened without its cookie: the stored interaction, if any, tells who and how.
      const uid = (ctx as unknown as { params?: { uid?: unknown } }).params?.uid;
      const interaction =
        typeof uid === 'string' && /^[\w-]{1,64}$/.test(uid)
          ? await ctx.oidc?.provider.Interaction.find(uid)
          : undefined;
      const params = (ctx.oidc?.params ?? interaction?.params ?? {}) as Record<string, unknown>;
      const c = pageContext(params.ui_locales, ctx.get('accept-language'));
      const clientId = ctx.oidc?.client?.clientId ?? (typeof params.client_id === 'string' ? params.client_id : '');
      const application = clientId ? await deps.findApplication(clientId) : undefined;
      const app = application && {
        name: application.name,
        tenant: application.tenantId,
        link: new URL(application.redirectUris[0]).origin,
      };
      const page =
        error instanceof errors.SessionNotFound
          ? expiredPage(c, app)
          : genericErrorPage(c, ctx.status >= 400 ? ctx.status : 400, out.error, app);
      ctx.status = page.status;
      ctx.set(PASS_PAGE_HEADERS);
      ctx.type = 'html';
      ctx.body = page.html;
    },
  } as Configuration;
}

/**
 * The approval message: who asks (the application and its tenant, as registered by the operator) before what
 * the client wrote (`binding_message`, quoted as theirs), then the link.
 */
export function approvalText(
  application: Pick<ApplicationEntity, 'name' | 'tenantId'> | undefined,
  bindingMessage: string | undefined,
  link: string,
  uiLocales?: unknown,
): string {
  const { m } = pageContext(uiLocales, undefined);
  return m.approvalSms(application && { app: application.name, tenant: application.tenantId }, bindingMessage, link);
}

/** The signature part of an approval link. */
export const approvalSignature = (secret: string, authReqId: string) =>
  createHmac('sha256', secret).update(`approval:${authReqId}`).digest('base64url');
