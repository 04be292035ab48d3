import { SmtpClient } from '@kyc/platform';
import { Injectable, OnModuleDestroy } from '@nestjs/common';

import { PassConfig } from '../config/pass.config';
import { PASS_MESSAGES, PassMessages } from '../pages/i18n/messages';

/** Sends the one-time sign-in codes over SMTP (PASS_SMTP_URL; the stack's local SMTP sink in development). */
@Injectable()
export class SignInMailer implements OnModuleDestroy {
  private readonly smtp: SmtpClient;

  constructor(config: PassConfig) {
    this.smtp = new SmtpClient(config.PASS_SMTP_URL, config.PASS_MAIL_FROM, 'PASS_SMTP_URL');
  }

  get configured(): boolean {
    return this.smtp.configured;
  }

  /** The code, in the language of the sign-in page (`m`, Spanish by default). */
  async sendCode(to: string, code: string, application: string, m: PassMessages = PASS_MESSAGES.es): Promise<void> {
    await this.smtp.send({ to, subject: m.mail.subject(code), text: m.mail.text(application, code) });
  }

  onModuleDestroy(): void {
    this.smtp.close();
  }
}
