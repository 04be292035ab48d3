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

import { SandboxPhoneMessageEntity } from './sandbox-phone-message.entity';

/** SANDBOX only: the access-link SMS the sandbox provider delivered to the tenant's users (latest 50). */
@ApiTags('sandbox')
@BackendKeys()
@Controller('v1/sandbox/phone-messages')
export class SandboxPhoneController {
  constructor(private readonly gateway: SandboxPhoneGateway<SandboxPhoneMessageEntity>) {}

  @Get()
  @ApiSuccess({
    schema: { type: 'object', properties: { messages: { type: 'array', items: { type: 'object' } } } },
    example: {
      messages: [
        {
          message_id: 'SMS0a1b2c3d4e5f60718293a4b5c6d7e8f9',
          phone_number: '+573001234567',
          channel: 'sms',
          text: 'Hola. Para continuar, verifica tu identidad en este enlace: https://…/web?token=…&lang=es',
          delivery_id: 'LND5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b',
          creation_date: '2026-11-25T06:00:00.000Z',
        },
      ],
    },
  })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: SandboxPhoneMessagesQuery) {
    const rows = await this.gateway.latest(caller.tenantId, query.phone_number);
    return { messages: rows.map((m) => ({ ...sandboxPhoneMessageJson(m), delivery_id: m.deliveryId })) };
  }
}
