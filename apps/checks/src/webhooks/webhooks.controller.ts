import { ApiEnvelopeErrors, ApiPublic, ApiSuccess, NoRateLimit, Public } from '@kyc/platform';
import { Body, Controller, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';

import { WebhookReceivedResponse } from './dto/webhook.response';
import { WEBHOOK_SIGNATURE_HEADER } from './webhook-signer';
import { WebhooksService } from './webhooks.service';

/** Third parties have no API key: they authenticate with the HMAC signature instead. */
@ApiTags('webhooks')
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Public()
  @NoRateLimit()
  @Post(':webhook_type')
  @ApiPublic()
  @ApiHeader({
    name: 'X-Signature',
    required: true,
    description: 'HMAC-SHA256 of the raw body with the webhook type secret',
  })
  @ApiSuccess({ type: WebhookReceivedResponse, example: { received: true, outcome: 'recorded' } })
  @ApiEnvelopeErrors(
    400,
    { 401: ['Invalid webhook signature', 'invalid_signature'] },
    { 404: ['Unknown webhook reference', 'unknown_reference'] },
    413,
  )
  @HttpCode(200)
  receive(
    @Param('webhook_type') type: string,
    @Body() body: Record<string, unknown>,
    @Headers(WEBHOOK_SIGNATURE_HEADER) signature?: string,
  ) {
    return this.webhooks.receive(type, body, signature);
  }
}
