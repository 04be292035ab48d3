import { ApiEnvelopeErrors, ApiPublic, ApiSuccess, NoRateLimit, OAuthErrorShape, Public } from '@kyc/platform';
import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiConsumes, ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { ApiOAuthErrors } from '../openapi/oauth-errors';
import {
  DISCOVERY_EXAMPLE,
  DISCOVERY_SCHEMA,
  INTROSPECTION_EXAMPLE,
  INTROSPECTION_SCHEMA,
  TOKEN_RESPONSE_EXAMPLE,
  TOKEN_RESPONSE_SCHEMA,
} from '../openapi/pass-schemas';
import { ProviderService } from './provider.service';

const field = (description: string) => ({ type: 'string', description });
/** Client credentials: an empty one is none (oidc-provider then finds no client authentication). */
const credential = (description: string) => ({ ...field(description), minLength: 1 });

/** Client authentication in the body (client_secret_post) — or an HTTP Basic header (client_secret_basic). */
const CLIENT_AUTH = {
  client_id: credential('the application'),
  client_secret: credential(
    'shown once at registration; or send client_id:client_secret in an HTTP Basic header instead ' +
      '(client_secret_basic); a public application sends client_id only',
  ),
};

/**
 * The paths oidc-provider serves, mounted on its Koa callback; only these are forwarded. Spec 3's token and
 * bc-authorize endpoints, and beside them the standard surface: discovery (OpenID Connect Discovery and
 * RFC 8414), revocation (RFC 7009) and introspection (RFC 7662). The authorization page is a browser page.
 */
@ApiTags('oauth2')
@Public()
@Controller()
export class ProviderController {
  constructor(private readonly provider: ProviderService) {}

  // One decorator per HTTP method, not @All: Nest registers @All routes without their route config, so the
  // platform would not see @Public() and would ask for an API key before reading the body.
  @Get(['authorize', 'authorize/:uid'])
  @ApiExcludeEndpoint()
  async read(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.provider.handle(req, reply);
  }

  @Post('authorize')
  @ApiExcludeEndpoint()
  async authorizeForm(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.provider.handle(req, reply);
  }

  @Post('v1/oauth2/token')
  @NoRateLimit()
  @ApiPublic()
  @ApiOperation({
    summary: 'Token endpoint (oidc-provider)',
    description:
      'Dispatches by content type: JSON `authorization_code` (errors in the service envelope), JSON ' +
      '`refresh_token` (RFC 6749 errors; single-use rotation, reuse revokes the family), form CIBA grant ' +
      '(RFC 6749 errors; poll no faster than `interval`). Every grant is also accepted form-encoded ' +
      '(RFC 6749, as OpenID Connect libraries send it; errors then in the RFC 6749 envelope). Client ' +
      'credentials in the body or an HTTP Basic header; a public application sends client_id and code_verifier.',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['grant_type', 'client_id'],
      properties: {
        grant_type: {
          type: 'string',
          enum: ['authorization_code', 'refresh_token', 'urn:openid:params:grant-type:ciba'],
        },
        ...CLIENT_AUTH,
        code: field('authorization_code grant'),
        redirect_uri: field('authorization_code grant: exactly the one of the authorization request'),
        code_verifier: field(
          'authorization_code grant: the PKCE verifier (RFC 7636) whose S256 hash was the code_challenge; ' +
            'required when the authorization request carried one',
        ),
        refresh_token: field('refresh_token grant'),
        scope: field('refresh_token grant: a space-delimited subset of the granted scopes'),
        auth_req_id: field('CIBA grant'),
      },
    },
    examples: {
      authorization_code: {
        value: {
          grant_type: 'authorization_code',
          code: 'c0de…',
          client_id: 'pc_5b0c2f6d8e1a4b7c9d0e1f2a',
          client_secret: 'ps_…',
          redirect_uri: 'https://acme.example/callback',
          code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
        },
      },
      refresh_token: {
        value: {
          grant_type: 'refresh_token',
          refresh_token: 'r8Jx…',
          client_id: 'pc_5b0c2f6d8e1a4b7c9d0e1f2a',
          client_secret: 'ps_…',
          scope: 'openid email',
        },
      },
    },
  })
  @ApiBasicAuth()
  @ApiSuccess({ schema: TOKEN_RESPONSE_SCHEMA, example: TOKEN_RESPONSE_EXAMPLE })
  @ApiOAuthErrors(
    {
      400: [
        ['validation_error', 'authorization_code (service envelope): invalid or expired code, client or redirect_uri'],
        ['invalid_grant', 'authorization_code (form): invalid, expired or reused code, redirect_uri or code_verifier'],
        ['invalid_grant', 'refresh/CIBA: token invalid, expired, of another client, already used or raced'],
        ['invalid_scope', 'refresh: scope not a subset of the granted scopes'],
        ['authorization_pending', 'CIBA: the user has not decided; keep polling at interval'],
        ['slow_down', 'CIBA: polled faster than interval'],
        ['access_denied', 'CIBA: the user declined'],
        ['expired_token', 'CIBA: unknown, expired or already redeemed auth_req_id'],
        ['unsupported_grant_type', 'another grant_type'],
        ['unauthorized_client', 'the application may not use this grant (CIBA not enabled)'],
      ],
      401: [['invalid_client', 'client authentication failed (authorization_code: envelope `bad_credentials`)']],
    },
    [400, 401],
  )
  async token(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.provider.handle(req, reply);
  }

  @Post('v1/oauth2/bc-authorize')
  @NoRateLimit()
  @OAuthErrorShape()
  @ApiPublic()
  @ApiOperation({
    summary: 'CIBA backchannel authentication (oidc-provider)',
    description:
      'Sends the approval link to the verified phone of the person `login_hint` names; poll the token ' +
      'endpoint with the returned auth_req_id. Errors in the RFC 6749 envelope.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['client_id', 'client_secret', 'login_hint', 'scope'],
      properties: {
        client_id: credential('the application (CIBA enabled)'),
        client_secret: credential('shown once at registration (or an HTTP Basic header)'),
        login_hint: field("the person's e-mail"),
        scope: field('space-delimited; must include openid'),
        binding_message: field('required with sensitive scopes; at most 100 printable characters'),
        authorization_details: field('RFC 9396 JSON array (attachments by s3_key, form_fields); see the pass page'),
      },
    },
  })
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['auth_req_id', 'expires_in', 'interval'],
      properties: {
        auth_req_id: { type: 'string' },
        expires_in: { type: 'integer', example: 600 },
        interval: { type: 'integer', example: 5 },
      },
    },
    example: { auth_req_id: 'Xk3p9Qe0…', expires_in: 600, interval: 5 },
  })
  @ApiOAuthErrors({
    400: [
      ['invalid_request', 'sensitive scope without binding_message; no verified phone; bad authorization_details'],
      ['unknown_user_id', 'login_hint is not the e-mail of a person'],
      ['unauthorized_client', 'the application may not use CIBA'],
    ],
    401: [['invalid_client', 'client authentication failed']],
    503: [['notifier_unavailable', 'approval message not delivered; retry later']],
  })
  @ApiEnvelopeErrors()
  async bcAuthorize(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.provider.handle(req, reply);
  }

  @Get(['.well-known/openid-configuration', '.well-known/oauth-authorization-server'])
  @ApiPublic()
  @ApiOperation({
    summary: 'Discovery document (OpenID Connect Discovery 1.0, RFC 8414)',
    description:
      "The issuer and every endpoint (spec 3's and the standard ones), scopes, claims, grant types with " +
      "CIBA's backchannel metadata, PKCE methods and client authentication methods. Both paths serve the " +
      'same document: point any OpenID Connect library at the issuer.',
  })
  @ApiSuccess({ schema: DISCOVERY_SCHEMA, example: DISCOVERY_EXAMPLE })
  async discovery(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.provider.handle(req, reply);
  }

  @Post('v1/oauth2/revoke')
  @NoRateLimit()
  @ApiPublic()
  @ApiBasicAuth()
  @ApiOperation({
    summary: 'Token revocation (RFC 7009)',
    description:
      'Revokes an access or refresh token of the calling application; revoking a refresh token revokes its ' +
      'whole grant (every access and refresh token of it). An unknown, expired or already revoked token ' +
      'answers 200 too (RFC 7009 2.2); a token of another application is refused.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['token', 'client_id'],
      properties: {
        token: field('the access or refresh token'),
        token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
        ...CLIENT_AUTH,
      },
    },
  })
  @ApiSuccess({
    description: 'Revoked (or nothing to revoke); empty body',
    schema: { type: 'string', maxLength: 0 },
    example: '',
  })
  @ApiOAuthErrors({
    400: [
      ['invalid_request', 'no token, or a token of another application'],
      ['unsupported_token_type', 'token_type_hint names a type that cannot be revoked'],
    ],
    401: [['invalid_client', 'client authentication failed']],
  })
  async revoke(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.provider.handle(req, reply);
  }

  @Post('v1/oauth2/introspect')
  @NoRateLimit()
  @ApiPublic()
  @ApiBasicAuth()
  @ApiOperation({
    summary: 'Token introspection (RFC 7662)',
    description:
      'Whether an access or refresh token of the calling application is active, with its scope, subject and ' +
      'lifetime. A token of another application, or an unknown, expired, used or revoked one, answers ' +
      '`{"active": false}`.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['token', 'client_id'],
      properties: {
        token: field('the access or refresh token'),
        token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
        ...CLIENT_AUTH,
      },
    },
  })
  @ApiSuccess({ schema: INTROSPECTION_SCHEMA, example: INTROSPECTION_EXAMPLE })
  @ApiOAuthErrors({
    400: [['invalid_request', 'no token']],
    401: [['invalid_client', 'client authentication failed']],
  })
  async introspect(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.provider.handle(req, reply);
  }
}
