import {
  ApiEnvelopeErrors,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  SandboxPhoneGateway,
  sandboxPhoneMessageJson,
  SandboxPhoneMessagesQuery,
} from '@kyc/platform';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { SANDBOX_MESSAGES_EXAMPLE, SandboxMessagesResponse } from './dto/sandbox-messages.response';
import { SandboxPhoneMessageEntity } from './sandbox-phone-message.entity';

/** SANDBOX only: what the sandbox phone provider delivered to the tenant's users (latest 50). */
@ApiTags('sandbox')
@BackendKeys()
@Controller('v1/sandbox/phone-messages')
export class SandboxPhoneController {
  constructor(private readonly gateway: SandboxPhoneGateway<SandboxPhoneMessageEntity>) {}

  @Get()
  @ApiSuccess({ type: SandboxMessagesResponse, example: SANDBOX_MESSAGES_EXAMPLE })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: SandboxPhoneMessagesQuery) {
    const rows = await this.gateway.latest(caller.tenantId, query.phone_number);
    return { messages: rows.map((m) => ({ ...sandboxPhoneMessageJson(m), validation_id: m.validationId })) };
  }
}
