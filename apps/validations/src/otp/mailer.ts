import { Provider } from '@nestjs/common';
import nodemailer, { Transporter } from 'nodemailer';

import { ValidationsConfig } from '../config/validations.config';

export interface OtpMail {
  to: string;
  subject: string;
  text: string;
  /** Stable per validation, so a receiver can drop the duplicate of a retried send. */
  messageId: string;
}

/** Failures a retry cannot fix (5xx SMTP replies, no SMTP configured). */
export class PermanentDeliveryError extends Error {}

/** Sends OTP e-mails. */
export abstract class OtpMailer {
  abstract send(mail: OtpMail): Promise<void>;
  abstract readonly configured: boolean;
}

/** SMTP through nodemailer, to VALIDATIONS_SMTP_URL (the stack's SMTP sink locally). */
export class SmtpOtpMailer extends OtpMailer {
  readonly configured = true;
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    super();
    this.transport = nodemailer.createTransport(url);
  }

  async send(mail: OtpMail): Promise<void> {
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

export class UnconfiguredOtpMailer extends OtpMailer {
  readonly configured = false;
  send(): Promise<void> {
    return Promise.reject(new PermanentDeliveryError('e-mail is not configured (VALIDATIONS_SMTP_URL is not set)'));
  }
}

export const OtpMailerProvider: Provider = {
  provide: OtpMailer,
  inject: [ValidationsConfig],
  useFactory: (config: ValidationsConfig) =>
    config.VALIDATIONS_SMTP_URL
      ? new SmtpOtpMailer(config.VALIDATIONS_SMTP_URL, config.VALIDATIONS_MAIL_FROM)
      : new UnconfiguredOtpMailer(),
};
