import { sandboxPhoneGatewayProvider } from '@kyc/platform';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { OtpMailerProvider } from './mailer';
import { PhoneSender, SandboxPhoneSender } from './phone-sender';
import { SandboxPhoneController } from './sandbox-phone.controller';
import { SandboxPhoneMessageEntity } from './sandbox-phone-message.entity';

/** Delivery of one-time codes: e-mail over SMTP, phone through the (sandbox) provider. */
@Module({
  imports: [TypeOrmModule.forFeature([SandboxPhoneMessageEntity])],
  controllers: [SandboxPhoneController],
  providers: [
    OtpMailerProvider,
    sandboxPhoneGatewayProvider(SandboxPhoneMessageEntity),
    { provide: PhoneSender, useClass: SandboxPhoneSender },
  ],
  exports: [OtpMailerProvider, PhoneSender],
})
export class OtpModule {}
