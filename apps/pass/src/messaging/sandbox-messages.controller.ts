import { ApiSuccess, PlatformAdmin } from '@kyc/platform';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { PhoneMessenger } from './phone-messenger';
import { SandboxPhoneMessenger } from './sandbox-phone-messenger';

/** Operator, sandbox only: the messages the sandbox messaging provider "delivered" (approval links). */
@ApiTags('sandbox')
@PlatformAdmin()
@Controller('v1/admin/sandbox/messages')
export class SandboxMessagesController {
  constructor(private readonly messenger: PhoneMessenger) {}

  @Get()
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['messages'],
      properties: {
        messages: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              to: { type: 'string' },
              text: { type: 'string' },
              sent_at: { type: 'string', format: 'date-time' },
            },
          },
        },
      },
    },
    example: {
      messages: [
        {
          to: '+573001234567',
          text: 'Acme web (tenant acme) asks you to approve a request. Their message: "Pay 10 USD to Acme". Review it: https://pass.example/approvals/abc?sig=xyz',
          sent_at: '2026-11-25T07:00:00.000Z',
        },
      ],
    },
  })
  list(@Query('phone_number') phoneNumber?: string) {
    const messages = this.messenger instanceof SandboxPhoneMessenger ? this.messenger.messages(phoneNumber) : [];
    return { messages };
  }
}
