import { SmtpClient } from '@kyc/platform';
import { Injectable, OnModuleDestroy } from '@nestjs/common';

import { PassConfig } from '../config/pass.config';

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

  async sendCode(to: string, code: string, application: string): Promise<void> {
    await this.smtp.send({
      to,
      subject: `Your sign-in code: ${code}`,
      text: `Your code to sign in to ${application} is ${code}.\nIt is valid for 10 minutes. If you did not ask for it, ignore this e-mail.\n`,
    });
  }

  onModuleDestroy(): void {
    this.smtp.close();
  }
}
