import { Module } from '@nestjs/common';

import { SignInMailer } from './sign-in-mailer';

/** The sign-in code e-mails. */
@Module({
  providers: [SignInMailer],
  exports: [SignInMailer],
})
export class MailModule {}
