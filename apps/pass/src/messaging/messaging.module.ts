import { Module } from '@nestjs/common';

import { PassConfig } from '../config/pass.config';
import { PhoneMessenger } from './phone-messenger';
import { SandboxMessagesController } from './sandbox-messages.controller';
import { SandboxPhoneMessenger } from './sandbox-phone-messenger';

/** The messages sent to a person's phone (CIBA approval links) and, in the sandbox, what was "delivered". */
@Module({
  controllers: [SandboxMessagesController],
  providers: [
    {
      provide: PhoneMessenger,
      inject: [PassConfig],
      useFactory: (c: PassConfig) =>
        new SandboxPhoneMessenger(c.PASS_SANDBOX_UNREACHABLE_PHONES, c.PASS_SANDBOX_OUTBOX_DIR),
    },
  ],
  exports: [PhoneMessenger],
})
export class MessagingModule {}
