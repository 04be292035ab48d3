import nodemailer, { Transporter } from 'nodemailer';

export interface OutgoingMail {
  to: string | string[];
  cc?: string[];
  subject: string;
  text: string;
  /** Stable per logical message, so a receiver can drop the duplicate of a retried send. */
  messageId?: string;
  headers?: Record<string, string>;
}

export interface MailReceipt {
  /** SMTP reply code of the accepted message (250). */
  responseCode: number;
  messageId: string;
}

/** A delivery that retrying cannot fix: a 5xx SMTP reply, no SMTP server configured, an unreachable number. */
export class PermanentDeliveryError extends Error {
  constructor(
    message: string,
    readonly responseCode?: number,
  ) {
    super(message);
  }
}

/**
 * The platform's one SMTP client (nodemailer): every service's e-mail goes through it. Without a
 * URL every send fails with a PermanentDeliveryError naming the setting to configure.
 */
export class SmtpClient {
  private readonly transport?: Transporter;

  constructor(
    url: string | undefined,
    private readonly from: string,
    /** The setting that holds the URL (named in the error when it is not set). */
    private readonly setting: string,
  ) {
    if (url) this.transport = nodemailer.createTransport(url);
  }

  get configured(): boolean {
    return this.transport !== undefined;
  }

  async send(mail: OutgoingMail): Promise<MailReceipt> {
    if (!this.transport)
      throw new PermanentDeliveryError(`e-mail is not configured on this platform (${this.setting} is not set)`);
    try {
      const info = (await this.transport.sendMail({
        from: this.from,
        to: mail.to,
        cc: mail.cc?.length ? mail.cc : undefined,
        subject: mail.subject,
        text: mail.text,
        messageId: mail.messageId,
        headers: mail.headers,
      })) as { response?: string; messageId: string };
      const code = Number(/^(\d{3})/.exec(String(info.response ?? ''))?.[1] ?? 250);
      return { responseCode: code, messageId: info.messageId };
    } catch (err) {
      const code = (err as { responseCode?: number }).responseCode;
      if (typeof code === 'number' && code >= 500)
        throw new PermanentDeliveryError(`SMTP refused the message: ${code} ${(err as Error).message}`, code);
      throw err;
    }
  }

  close(): void {
    this.transport?.close();
  }
}
