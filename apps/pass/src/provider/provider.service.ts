import type { ServerResponse } from 'node:http';

import { Clock } from '@kyc/platform';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { DataSource } from 'typeorm';

import { ApplicationsService } from '../applications/applications.service';
import { PassConfig } from '../config/pass.config';
import { SecretBox } from '../crypto/secret-box';
import { SigningKeysService } from '../keys/signing-keys.service';
import { PhoneMessenger } from '../messaging/phone-messenger';
import { authorizeErrorPage, pageContext, PASS_PAGE_HEADERS } from '../pages/pass-page';
import { PassUsersService } from '../users/pass-users.service';
import { AttachmentCheck } from './attachment-check';
import { checkAuthorizeRequest } from './authorize-gate';
import { cacheClients } from './client-cache';
import { discoveryMiddleware } from './discovery';
import { issueSpecIdTokens } from './id-token';
import { OidcModelStore } from './oidc-model.store';
import { loadOidcProvider, OidcProviderModule } from './oidc-provider.loader';
import {
  approvalSignature,
  CIBA_GRANT,
  DISCOVERY_PATHS,
  passAuthorizationDetails,
  PROVIDER_ROUTES,
  providerConfiguration,
  TTL,
} from './provider.configuration';
import { MountedRequest, tokenEndpointMiddleware } from './token-endpoint.middleware';

/**
 * Owns pass's oidc-provider instance (built at boot; id_tokens are signed with the newest stored key)
 * and hands the mounted paths to its Koa callback.
 */
@Injectable()
export class ProviderService implements OnModuleInit {
  private oidc!: OidcProviderModule;
  private instance!: Provider;
  private handler!: (req: MountedRequest, res: ServerResponse) => Promise<void>;
  private readonly store: OidcModelStore;

  constructor(
    private readonly config: PassConfig,
    @InjectDataSource() dataSource: DataSource,
    private readonly clock: Clock,
    private readonly keys: SigningKeysService,
    private readonly applications: ApplicationsService,
    private readonly users: PassUsersService,
    private readonly box: SecretBox,
    private readonly messenger: PhoneMessenger,
    private readonly attachments: AttachmentCheck,
  ) {
    this.store = new OidcModelStore(dataSource);
  }

  async onModuleInit(): Promise<void> {
    this.oidc = await loadOidcProvider();
    await this.build();
  }

  get provider(): Provider {
    return this.instance;
  }

  get errors(): OidcProviderModule['errors'] {
    return this.oidc.errors;
  }

  /** The approval page link of a CIBA request. */
  approvalLink(authReqId: string): string {
    return `${this.config.issuer}/approvals/${encodeURIComponent(authReqId)}?sig=${this.approvalSignature(authReqId)}`;
  }

  approvalSignature(authReqId: string): string {
    return approvalSignature(this.box.derive('ciba-approval'), authReqId);
  }

  /**
   * Serves a mounted path with the provider. GET /authorize is checked first (failures before redirect are
   * a page); the body Fastify already parsed is handed over (JSON token requests as form parameters).
   */
  async handle(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const raw = req.raw as MountedRequest;
    // RFC 8414's metadata path serves the same document as OpenID Connect Discovery's.
    if (req.method === 'GET' && raw.url?.split('?')[0] === DISCOVERY_PATHS[1]) raw.url = DISCOVERY_PATHS[0];
    if (req.method === 'GET' && raw.url?.split('?')[0] === PROVIDER_ROUTES.authorization) {
      const query = req.query as Record<string, unknown>;
      const clientId = typeof query.client_id === 'string' ? query.client_id : '';
      const gate = checkAuthorizeRequest(query, await this.applications.find(clientId));
      if (!gate.ok) {
        const page = authorizeErrorPage(
          pageContext(query.ui_locales, req.headers['accept-language']),
          gate.error,
          gate.description,
        );
        await reply.status(page.status).headers(PASS_PAGE_HEADERS).type('text/html; charset=utf-8').send(page.html);
        return;
      }
      const url = new URL(raw.url, 'http://pass');
      if (gate.scope) url.searchParams.set('scope', gate.scope);
      raw.url = `${url.pathname}${url.search}`;
    }
    if (req.body && typeof req.body === 'object') {
      raw.body = req.body as Record<string, unknown>;
      if (raw.url?.split('?')[0] === PROVIDER_ROUTES.backchannel_authentication) passAuthorizationDetails(raw.body);
      if (req.headers['content-type']?.startsWith('application/json')) {
        raw.passJson = true;
        raw.headers['content-type'] = 'application/x-www-form-urlencoded';
      }
    }
    reply.hijack();
    await this.handler(raw, reply.raw);
  }

  private async build(): Promise<void> {
    const keys = await this.keys.activeKeys();
    const provider = new this.oidc.Provider(
      this.config.issuer,
      providerConfiguration(this.oidc, {
        config: this.config,
        clock: this.clock,
        store: this.store,
        keys,
        cookieKey: this.box.derive('cookies'),
        findApplication: (id) => this.applications.find(id),
        clientSecret: (a) => this.applications.clientSecret(a),
        findUserById: (id) => this.users.findById(id),
        accountExists: (id) => this.store.accountExists(id),
        findUserByEmail: (email) => this.users.findByEmail(email),
        messenger: this.messenger,
        approvalLink: (id) => this.approvalLink(id),
        unusableAttachments: (clientId, loginHint, keys) => this.attachments.unusable(clientId, loginHint, keys),
      }),
    );
    provider.proxy = true;
    cacheClients(provider, () => this.clock.now().getTime());
    issueSpecIdTokens(
      provider,
      {
        current: () => this.keys.signingKey(),
        issuer: provider.issuer,
        ttl: TTL.IdToken,
        now: () => Math.floor(this.clock.now().getTime() / 1000),
      },
      CIBA_GRANT,
    );
    // Every answer of the provider carries the page headers (its pages, errors and redirects are seen by
    // people); the web_message response drops frame-ancestors and X-Frame-Options and adds its script's hash.
    provider.use(async (ctx, next) => {
      ctx.set(PASS_PAGE_HEADERS);
      await next();
    });
    provider.use(discoveryMiddleware(provider.issuer) as never);
    provider.use(tokenEndpointMiddleware({ store: this.store, now: () => this.clock.now() }) as never);
    this.instance = provider;
    this.handler = provider.callback();
  }
}
