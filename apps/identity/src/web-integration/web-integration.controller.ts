import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller, EndUserKeys } from '@kyc/platform';
import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { AccessLinksService } from './access-links.service';
import { AccessLinkDto } from './dto/access-link.dto';
import {
  ACCESS_LINK_EXAMPLE,
  AccessLinkResponse,
  DELIVERY_EXAMPLE,
  LinkDeliveryResponse,
} from './dto/delivery.response';
import { SendLinkDto } from './dto/send-link.dto';
import { VarValues } from './dto/var-values';
import { presentDelivery } from './link-delivery.presenter';
import { LinkDeliveryService } from './link-delivery.service';

@ApiTags('web integration')
@BackendKeys()
@Controller('v1')
export class WebIntegrationController {
  constructor(
    private readonly links: AccessLinksService,
    private readonly deliveries: LinkDeliveryService,
  ) {}

  @Post('web-integration/:flow/process-access-link')
  @ApiSuccess({ status: 201, type: AccessLinkResponse, example: ACCESS_LINK_EXAMPLE })
  @ApiEnvelopeErrors(400, { 404: ['flow IDFnope not found', 'flow_not_found'] }, 413)
  async accessLink(
    @CurrentCaller() caller: Caller,
    @Param('flow') flowId: string,
    @Body() dto: AccessLinkDto,
    @VarValues() variables: Record<string, string>,
  ) {
    const issued = await this.links.create(caller, flowId, dto, variables);
    return {
      ...presentDelivery(issued.delivery),
      process_url: issued.link,
      api_key: issued.apiKey,
      key_id: issued.keyId,
      ...(issued.expiresAt ? { expiration_date: issued.expiresAt.toISOString() } : {}),
    };
  }

  @Get('web-integration/link-deliveries/:delivery_id')
  @ApiSuccess({ type: LinkDeliveryResponse, example: { ...DELIVERY_EXAMPLE, delivery_status: 'sent' } })
  @ApiEnvelopeErrors({ 404: ['delivery LND… not found', 'delivery_not_found'] })
  async delivery(@CurrentCaller() caller: Caller, @Param('delivery_id') id: string) {
    return presentDelivery(await this.deliveries.get(caller.tenantId, id));
  }

  @EndUserKeys()
  @Post('processes/:process_id/send-link')
  @HttpCode(200)
  @ApiSuccess({
    type: LinkDeliveryResponse,
    example: {
      ...DELIVERY_EXAMPLE,
      process_id: 'IDP0a1b2c3d4e5f60718293a4b5c6d7e8f9',
      message_channel: 'msgapp',
      recipient: '+573001234567',
      outbound_id: 'OTB3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c',
    },
  })
  @ApiEnvelopeErrors(
    400,
    { 403: ['send the link with the key that created the process', 'not_process_key'] },
    { 404: ['process IDPnope not found', 'process_not_found'] },
    { 409: ['process IDP… is already success', 'process_finished'] },
  )
  async sendLink(
    @CurrentCaller() caller: Caller,
    @Headers('service-api-key') token: string,
    @Param('process_id') id: string,
    @Body() dto: SendLinkDto,
  ) {
    return presentDelivery(await this.links.sendLink(caller, token, id, dto));
  }
}
