import { MailReceipt, SmtpClient } from '@kyc/platform';
import { Provider } from '@nestjs/common';

import { AccountConfig } from '../../config/account.config';

export interface MailMessage {
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  /** Stable per execution, so a receiving system can drop a duplicate after a retried send. */
  messageId: string;
  headers: Record<string, string>;
}

/** Sends e-mail for email actions (the platform's SmtpClient; tests may provide another). */
export abstract class Mailer {
  abstract send(message: MailMessage): Promise<MailReceipt>;
}

export const MailerProvider: Provider = {
  provide: Mailer,
  inject: [AccountConfig],
  useFactory: (config: AccountConfig) =>
    new SmtpClient(config.ACCOUNT_SMTP_URL, config.ACCOUNT_MAIL_FROM, 'ACCOUNT_SMTP_URL'),
};
