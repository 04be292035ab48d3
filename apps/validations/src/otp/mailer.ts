import { MailReceipt, SmtpClient } from '@kyc/platform';
import { Provider } from '@nestjs/common';

import { ValidationsConfig } from '../config/validations.config';

export interface OtpMail {
  to: string;
  subject: string;
  text: string;
  /** Stable per validation, so a receiver can drop the duplicate of a retried send. */
  messageId: string;
}

/** Sends OTP e-mails (the platform's SmtpClient; tests may provide another). */
export abstract class OtpMailer {
  abstract send(mail: OtpMail): Promise<MailReceipt | void>;
  abstract readonly configured: boolean;
}

export const OtpMailerProvider: Provider = {
  provide: OtpMailer,
  inject: [ValidationsConfig],
  useFactory: (config: ValidationsConfig) =>
    new SmtpClient(config.VALIDATIONS_SMTP_URL, config.VALIDATIONS_MAIL_FROM, 'VALIDATIONS_SMTP_URL'),
};
