import { Injectable, OnModuleDestroy } from '@nestjs/common';
import nodemailer, { Transporter } from 'nodemailer';

import { PassConfig } from '../config/pass.config';

/** Sends the one-time sign-in codes over SMTP (PASS_SMTP_URL; the stack's local SMTP sink in development). */
@Injectable()
export class SignInMailer implements OnModuleDestroy {
  private readonly transport?: Transporter;

  constructor(private readonly config: PassConfig) {
    if (config.PASS_SMTP_URL) this.transport = nodemailer.createTransport(config.PASS_SMTP_URL);
  }

  get configured(): boolean {
    return this.transport !== undefined;
  }

  async sendCode(to: string, code: string, application: string): Promise<void> {
    if (!this.transport) throw new Error('PASS_SMTP_URL is not configured');
    await this.transport.sendMail({
      from: this.config.PASS_MAIL_FROM,
      to,
      subject: `Your sign-in code: ${code}`,
      text: `Your code to sign in to ${application} is ${code}.\nIt is valid for 10 minutes. If you did not ask for it, ignore this e-mail.\n`,
    });
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
