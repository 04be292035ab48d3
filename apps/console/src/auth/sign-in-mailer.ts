import { SmtpClient } from '@kyc/platform';
import { Injectable, OnModuleDestroy } from '@nestjs/common';

import { ConsoleConfig } from '../config/console.config';

/** Sends the console's one-time sign-in codes over SMTP (CONSOLE_SMTP_URL; the stack's local sink in development). */
@Injectable()
export class SignInMailer implements OnModuleDestroy {
  private readonly smtp: SmtpClient;

  constructor(config: ConsoleConfig) {
    this.smtp = new SmtpClient(config.CONSOLE_SMTP_URL, config.CONSOLE_MAIL_FROM, 'CONSOLE_SMTP_URL');
  }

  async sendCode(to: string, code: string): Promise<void> {
    await this.smtp.send({
      to,
      subject: `Your console sign-in code: ${code}`,
      text:
        `Your code to sign in to the KYC console is ${code}.\n` +
        `It is valid for 10 minutes. If you did not ask for it, ignore this e-mail.\n\n` +
        `Tu código para entrar en la consola es ${code}. / Seu código para entrar no console é ${code}.\n`,
    });
  }

  onModuleDestroy(): void {
    this.smtp.close();
  }
}
