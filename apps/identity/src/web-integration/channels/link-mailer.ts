import { Provider } from '@nestjs/common';
import nodemailer, { Transporter } from 'nodemailer';

import { IdentityConfig } from '../../config/identity.config';
import { PermanentDeliveryError } from './delivery-error';

export interface LinkMail {
  to: string;
  subject: string;
  text: string;
  /** Stable per delivery, so a receiver can drop the duplicate of a retried send. */
  messageId: string;
}

/** Sends access-link e-mails. */
export abstract class LinkMailer {
  abstract send(mail: LinkMail): Promise<void>;
}

/** SMTP through nodemailer, to IDENTITY_SMTP_URL (the stack's SMTP sink locally). */
export class SmtpLinkMailer extends LinkMailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    super();
    this.transport = nodemailer.createTransport(url);
  }

  async send(mail: LinkMail): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, ...mail });
    } catch (err) {
      const code = (err as { responseCode?: number }).responseCode;
      if (typeof code === 'number' && code >= 500)
        throw new PermanentDeliveryError(`SMTP refused the message: ${code} ${(err as Error).message}`);
      throw err;
    }
  }
}

export class UnconfiguredLinkMailer extends LinkMailer {
  send(): Promise<void> {
    return Promise.reject(new PermanentDeliveryError('e-mail is not configured (IDENTITY_SMTP_URL is not set)'));
  }
}

export const LinkMailerProvider: Provider = {
  provide: LinkMailer,
  inject: [IdentityConfig],
  useFactory: (config: IdentityConfig) =>
    config.IDENTITY_SMTP_URL
      ? new SmtpLinkMailer(config.IDENTITY_SMTP_URL, config.IDENTITY_MAIL_FROM)
      : new UnconfiguredLinkMailer(),
};
