import { ApiEnvelopeErrors, ApiPublic, ApiSuccess, NoRateLimit, Public } from '@kyc/platform';
import { Controller, Get, Headers, HttpCode, Param, Post, Query, RawBodyRequest, Req } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { SIGNATURE_HEADER } from '../provider/whatsapp-webhook';
import { WebhooksService } from './webhooks.service';

/** The messaging provider's webhooks: no API key, the HMAC signature authenticates them. */
@ApiTags('provider webhooks')
@Controller('v1/msg')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Public()
  @NoRateLimit()
  @Get(':provider/statuses')
  @ApiPublic()
  @ApiSuccess({ contentType: 'text/plain', description: 'The `hub.challenge`, as text' })
  @ApiEnvelopeErrors(
    { 403: ['verification failed: unknown verify token', 'verification_failed'] },
    {
      404: ['unknown messaging provider sms', 'unknown_provider'],
    },
  )
  verify(
    @Param('provider') provider: string,
    @Query('hub.mode') mode?: string,
    @Query('hub.verify_token') token?: string,
    @Query('hub.challenge') challenge?: string,
  ) {
    return this.webhooks.verify(provider, mode, token, challenge);
  }

  @Public()
  @NoRateLimit()
  @Post(':provider/statuses')
  @ApiPublic()
  @ApiSuccess({
    schema: { type: 'object', properties: { received: { type: 'boolean' } } },
    example: { received: true },
    description: 'Accepted; processed once, off the request',
  })
  @ApiEnvelopeErrors(
    { 400: ['the webhook body must be JSON', 'invalid_body'] },
    { 401: ['the X-Hub-Signature-256 signature is missing or invalid', 'invalid_signature'] },
    { 404: ['unknown messaging provider sms', 'unknown_provider'] },
    413,
  )
  @ApiBody({
    description:
      "The provider's webhook as it sends it (WhatsApp Cloud API: `object` and `entry[].changes[]`), signed over its raw bytes",
    schema: {
      type: 'object',
      required: ['object', 'entry'],
      properties: {
        object: { type: 'string', example: 'whatsapp_business_account' },
        entry: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['id', 'changes'],
            properties: {
              id: { type: 'string', minLength: 1, description: 'The business account (WABA) id' },
              changes: { type: 'array', items: { type: 'object', additionalProperties: true } },
            },
            additionalProperties: true,
          },
        },
      },
      additionalProperties: true,
    },
  })
  @HttpCode(200)
  receive(
    @Param('provider') provider: string,
    @Req() req: RawBodyRequest<FastifyRequest>,
    @Headers(SIGNATURE_HEADER) signature?: string,
  ) {
    return this.webhooks.receive(provider, req.rawBody, signature);
  }
}
