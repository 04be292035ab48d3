import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller } from '@kyc/platform';
import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { MESSAGE_EXAMPLE, MessageResponse } from './dto/message.response';
import { SendOutboundDto } from './dto/send-outbound.dto';
import { VarValues } from './dto/var-values.decorator';
import { presentMessage } from './message.presenter';
import { MessagesService } from './messages.service';

/** Sending an approved outbound to a user, and reading the message's delivery status. */
@ApiTags('outbound messages')
@BackendKeys()
@Controller('v1/msg')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Post('outbounds/send')
  @ApiSuccess({ status: 201, type: MessageResponse, example: { ...MESSAGE_EXAMPLE, status: 'accepted' } })
  @ApiEnvelopeErrors(
    400,
    { 404: ['outbound OTB0c1d2 not found', 'outbound_not_found'] },
    { 409: ['only APPROVED outbounds can be sent', 'outbound_not_sendable'] },
    413,
    { 503: ['the messaging provider is unreachable', 'provider_unavailable'] },
  )
  async send(
    @CurrentCaller() caller: Caller,
    @Body() dto: SendOutboundDto,
    @VarValues() values: Record<string, string>,
  ) {
    return presentMessage(await this.messages.send(caller, dto, values));
  }

  @Get('messages/:message_id')
  @ApiSuccess({ type: MessageResponse, example: MESSAGE_EXAMPLE })
  @ApiEnvelopeErrors({ 404: ['message MSG6f1d2 not found', 'message_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('message_id') id: string) {
    return presentMessage(await this.messages.get(caller, id));
  }
}
