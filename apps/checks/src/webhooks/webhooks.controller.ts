import { Public } from '@kyc/platform';
import { Body, Controller, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { WEBHOOK_SIGNATURE_HEADER } from './webhook-signer';
import { WebhooksService } from './webhooks.service';

/** Third parties have no API key: they authenticate with the HMAC signature instead. */
@ApiTags('webhooks')
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Public()
  @Post(':webhook_type')
  @HttpCode(200)
  receive(
    @Param('webhook_type') type: string,
    @Body() body: Record<string, unknown>,
    @Headers(WEBHOOK_SIGNATURE_HEADER) signature?: string,
  ) {
    return this.webhooks.receive(type, body, signature);
  }
}
