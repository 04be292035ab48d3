import { Provider } from '@nestjs/common';
import nodemailer, { Transporter } from 'nodemailer';

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

export interface MailReceipt {
  /** SMTP reply code of the accepted message (250). */
  responseCode: number;
  messageId: string;
}

/** Failures SMTP servers report with a 5xx reply: retrying cannot help. */
export class PermanentMailError extends Error {}

/** Sends e-mail for email actions. */
export abstract class Mailer {
  abstract send(message: MailMessage): Promise<MailReceipt>;
}

/** SMTP through nodemailer, to ACCOUNT_SMTP_URL (e.g. smtp://127.0.0.1:2525, the local sink of `npm start`). */
export class SmtpMailer extends Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    super();
    this.transport = nodemailer.createTransport(url);
  }

  async send(message: MailMessage): Promise<MailReceipt> {
    try {
      const info = await this.transport.sendMail({
        from: this.from,
        to: message.to,
        cc: message.cc.length ? message.cc : undefined,
        subject: message.subject,
        text: message.text,
        messageId: message.messageId,
        headers: message.headers,
      });
      const code = Number(/^(\d{3})/.exec(String(info.response ?? ''))?.[1] ?? 250);
      return { responseCode: code, messageId: info.messageId };
    } catch (err) {
      const code = (err as { responseCode?: number }).responseCode;
      if (typeof code === 'number' && code >= 500)
        throw Object.assign(new PermanentMailError(`SMTP refused the message: ${code} ${(err as Error).message}`), {
          responseCode: code,
        });
      throw err;
    }
  }
}

/** Used when ACCOUNT_SMTP_URL is not set: every email action fails, saying so. */
export class UnconfiguredMailer extends Mailer {
  async send(): Promise<MailReceipt> {
    throw new PermanentMailError('e-mail is not configured on this platform (ACCOUNT_SMTP_URL is not set)');
  }
}

export const MailerProvider: Provider = {
  provide: Mailer,
  inject: [AccountConfig],
  useFactory: (config: AccountConfig) =>
    config.ACCOUNT_SMTP_URL
      ? new SmtpMailer(config.ACCOUNT_SMTP_URL, config.ACCOUNT_MAIL_FROM)
      : new UnconfiguredMailer(),
};
