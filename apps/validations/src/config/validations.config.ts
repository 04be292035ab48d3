import { createHash, randomBytes } from 'node:crypto';

import { SERVICES } from '@kyc/contracts';
import { EnvNumber, loadConfig, PlatformConfig } from '@kyc/platform';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';

export class ValidationsConfig extends PlatformConfig {
  /** Settings every replica must share (required with NODE_ENV=production or SERVICE_REPLICAS > 1). */
  static readonly SHARED_SECRETS = ['VALIDATIONS_SECRET_KEY'];

  /**
   * Secret of the service: signs upload and media links and peppers OTP hashes (HMAC-SHA256), at
   * least 16 characters. Keep it stable and shared by every replica: required in production
   * (NODE_ENV=production) and with SERVICE_REPLICAS > 1. A single development process without it
   * draws a random key at boot (links and pending codes die with the process).
   */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'VALIDATIONS_SECRET_KEY must have at least 16 characters' })
  VALIDATIONS_SECRET_KEY?: string;

  /** SMTP server of e-mail OTPs, e.g. smtp://127.0.0.1:2525. Without it e-mail validations fail (otp_delivery_failed). */
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'VALIDATIONS_SMTP_URL must be an smtp:// or smtps:// URL' })
  VALIDATIONS_SMTP_URL?: string;

  /** From address of e-mail OTPs. */
  @IsString()
  VALIDATIONS_MAIL_FROM = 'KYC validations <validations@kyc.local>';

  /** Phone OTP provider (SMS, call, messaging app). Only the sandbox exists here: messages land in sandbox_phone_messages. */
  @IsIn(['sandbox'])
  VALIDATIONS_PHONE_PROVIDER = 'sandbox';

  /** Largest uploaded media file, decoded (bytes). */
  @EnvNumber()
  @IsInt()
  @Min(1024)
  VALIDATIONS_MEDIA_MAX_BYTES = 10 * 1024 * 1024;

  /**
   * Largest image accepted (front, reverse, face_photo), in megapixels read from its header before anything
   * decodes it; images of more than 8 bits per channel count twice. Over it the upload is refused (400
   * image_too_large). The engines refuse more than 40 whatever this says.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(40)
  VALIDATIONS_IMAGE_MAX_MEGAPIXELS = 16;

  /** Deleted validations can be restored this many days; then their data and media are purged. */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(365)
  VALIDATIONS_RESTORE_DAYS = 30;

  /** Manual review schedule: UTC hours `from-to` (0-24 = always) on ISO weekdays (1 = Monday). */
  @Matches(/^([01]?\d|2[0-4])-([01]?\d|2[0-4])$/, {
    message: 'VALIDATIONS_REVIEW_HOURS must be from-to UTC hours, e.g. 8-18',
  })
  VALIDATIONS_REVIEW_HOURS = '0-24';

  /** Manual review schedule: ISO weekdays the review team works (1 = Monday). */
  @Matches(/^[1-7](,[1-7])*$/, { message: 'VALIDATIONS_REVIEW_DAYS must be ISO weekdays, e.g. 1,2,3,4,5' })
  VALIDATIONS_REVIEW_DAYS = '1,2,3,4,5,6,7';

  /** Engine jobs (document and face) run at once per process. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(32)
  VALIDATIONS_ENGINE_CONCURRENCY = 2;

  /**
   * Nice value (0-19) of the engines' threads (face, document image, OCR, and the threads their native
   * libraries start): above 0 the event loop answering the API is scheduled before them when the CPU is
   * short; an idle machine still gives them all of it. 0 runs them at the service's priority.
   */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(19)
  VALIDATIONS_ENGINE_NICE = 10;

  private drawnKey?: Buffer;

  /** The key links are signed and OTPs peppered with. */
  get secretKey(): Buffer {
    if (this.VALIDATIONS_SECRET_KEY) return createHash('sha256').update(this.VALIDATIONS_SECRET_KEY).digest();
    this.drawnKey ??= randomBytes(32);
    return this.drawnKey;
  }

  /** Whether the manual review team works at this moment (VALIDATIONS_REVIEW_HOURS and _DAYS). */
  reviewAvailableAt(at: Date): boolean {
    const [from, to] = this.VALIDATIONS_REVIEW_HOURS.split('-').map(Number);
    const day = at.getUTCDay() === 0 ? 7 : at.getUTCDay();
    if (!this.VALIDATIONS_REVIEW_DAYS.split(',').map(Number).includes(day)) return false;
    const hour = at.getUTCHours() + at.getUTCMinutes() / 60;
    return from <= to ? hour >= from && hour < to : hour >= from || hour < to;
  }
}

/** Reads the validations service configuration from the environment (defaults: port 4007, schema validations). */
export const loadValidationsConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(ValidationsConfig, env, {
    SERVICE_NAME: 'validations',
    PORT: SERVICES.validations.port,
    DB_SCHEMA: SERVICES.validations.schema,
  });
