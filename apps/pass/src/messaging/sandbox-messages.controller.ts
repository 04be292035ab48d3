import { PlatformAdmin } from '@kyc/platform';
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
  list(@Query('phone_number') phoneNumber?: string) {
    const messages = this.messenger instanceof SandboxPhoneMessenger ? this.messenger.messages(phoneNumber) : [];
    return { messages };
  }
}
