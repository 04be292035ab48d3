import { Job, JobQueueService, PermanentDeliveryError, PermanentJobError } from '@kyc/platform';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { EnrollmentEntity } from '../enrollments/enrollment.entity';
import { OtpMailer } from '../otp/mailer';
import { PhoneSender } from '../otp/phone-sender';
import { Secrets } from '../shared/link-signer';
import { ValidationEntity } from './validation.entity';
import { ValidationStateService } from './validation-state.service';

export const OTP_QUEUE = 'validations.otp-delivery';

interface OtpJob {
  validation_id: string;
  /** The code, sealed with the service key (the validation keeps only its HMAC). */
  sealed_code: string;
}

const PHONE_TEXT: Record<string, (name: string, code: string) => string> = {
  en: (name, code) => `${name}: your verification code is ${code}`,
  es: (name, code) => `${name}: tu código de verificación es ${code}`,
  'pt-BR': (name, code) => `${name}: seu código de verificação é ${code}`,
};

/**
 * Sends the one-time code of an e-mail or phone validation, off the request: e-mail over SMTP
 * with the configured texts, phone through the phone provider (sandbox here). Retried with
 * backoff; when delivery cannot succeed the validation fails with otp_delivery_failed.
 */
@Injectable()
export class OtpDeliveryWorker implements OnModuleInit {
  private readonly logger = new Logger('otp');

  constructor(
    @InjectRepository(ValidationEntity) private readonly validations: Repository<ValidationEntity>,
    @InjectRepository(EnrollmentEntity) private readonly enrollments: Repository<EnrollmentEntity>,
    private readonly mailer: OtpMailer,
    private readonly phone: PhoneSender,
    private readonly secrets: Secrets,
    private readonly state: ValidationStateService,
    private readonly jobs: JobQueueService,
  ) {}

  onModuleInit(): void {
    this.jobs.register<OtpJob>(OTP_QUEUE, (job) => this.deliver(job), {
      concurrency: 4,
      backoffMs: (n) => Math.min(30_000, 500 * 2 ** (n - 1)),
    });
  }

  private async deliver(job: Job<OtpJob>): Promise<void> {
    const v = await this.validations.findOneBy({ id: job.payload.validation_id });
    if (!v || v.status !== 'pending' || v.deletedAt) return;
    const enrollment = v.enrollmentId ? await this.enrollments.findOneBy({ id: v.enrollmentId }) : null;
    try {
      if (!enrollment) throw new PermanentDeliveryError('the enrollment of the validation is gone');
      const code = this.secrets.open(job.payload.sealed_code);
      if (v.type === 'email-verification') {
        const s = v.settings;
        await this.mailer.send({
          to: enrollment.email!,
          subject: s.email_subject!,
          text: [
            s.email_title,
            '',
            s.email_text_1,
            '',
            code,
            '',
            s.email_text_2,
            '',
            `Support: ${s.support_email}`,
          ].join('\n'),
          messageId: `<${v.id}@validations.kyc.local>`,
        });
      } else {
        const locale = String(v.inputs.phone_locale ?? 'es');
        await this.phone.send({
          tenantId: v.tenantId,
          validationId: v.id,
          phoneNumber: enrollment.phoneNumber!,
          channel: (v.inputs.verify_channel as 'sms' | 'call' | 'msgapp') ?? 'sms',
          text: (PHONE_TEXT[locale] ?? PHONE_TEXT.es)(v.settings.custom_name ?? 'KYC', code),
        });
      }
    } catch (err) {
      const permanent = err instanceof PermanentDeliveryError;
      if (!permanent && job.attempt < job.maxAttempts) throw err;
      this.logger.warn({ err: err as Error, validation_id: v.id, msg: 'OTP not delivered; the validation fails' });
      await this.state.transaction(async (m) => {
        const locked = await this.state.lock(m, v.id);
        if (locked?.status === 'pending')
          await this.state.finish(m, locked, { status: 'system_error', reason: 'otp_delivery_failed' });
      });
      if (permanent) throw new PermanentJobError(err.message);
    }
  }
}
