import { MailReceipt, SmtpClient } from '@kyc/platform';
import { Provider } from '@nestjs/common';

import { IdentityConfig } from '../../config/identity.config';

export interface LinkMail {
  to: string;
  subject: string;
  text: string;
  /** Stable per delivery, so a receiver can drop the duplicate of a retried send. */
  messageId: string;
}

/** Sends access-link e-mails (the platform's SmtpClient; tests may provide another). */
export abstract class LinkMailer {
  abstract send(mail: LinkMail): Promise<MailReceipt | void>;
}

export const LinkMailerProvider: Provider = {
  provide: LinkMailer,
  inject: [IdentityConfig],
  useFactory: (config: IdentityConfig) =>
    new SmtpClient(config.IDENTITY_SMTP_URL, config.IDENTITY_MAIL_FROM, 'IDENTITY_SMTP_URL'),
};
