import { Caller, CurrentCaller } from '@kyc/platform';
import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { SendOutboundDto } from './dto/send-outbound.dto';
import { VarValues } from './dto/var-values.decorator';
import { presentMessage } from './message.presenter';
import { MessagesService } from './messages.service';

/** Sending an approved outbound to a user, and reading the message's delivery status. */
@ApiTags('outbound messages')
@Controller('v1/msg')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Post('outbounds/send')
  async send(
    @CurrentCaller() caller: Caller,
    @Body() dto: SendOutboundDto,
    @VarValues() values: Record<string, string>,
  ) {
    return presentMessage(await this.messages.send(caller, dto, values));
  }

  @Get('messages/:message_id')
  async get(@CurrentCaller() caller: Caller, @Param('message_id') id: string) {
    return presentMessage(await this.messages.get(caller, id));
  }
}
