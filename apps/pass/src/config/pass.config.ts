import { SERVICES } from '@kyc/contracts';
import { EnvNumber, loadConfig, PlatformConfig } from '@kyc/platform';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';

export class PassConfig extends PlatformConfig {
  /**
   * Key that seals secrets at rest (client secrets, the provider's signing keys, its cookie keys) with
   * AES-256-GCM: 64 hex characters (`openssl rand -hex 32`), or a passphrase of at least 16 characters.
   * Keep it stable: changing it makes stored keys and secrets unreadable.
   */
  @IsString()
  @MinLength(16, {
    message:
      'PASS_SECRETS_KEY must be 64 hex characters (openssl rand -hex 32) or a passphrase of at least 16 characters',
  })
  PASS_SECRETS_KEY!: string;

  /**
   * The issuer (`iss`) and the base of the pages and of the approval links, e.g. https://pass.example.com.
   * Defaults to the service's public URL.
   */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'PASS_ISSUER must be an http(s) URL' })
  PASS_ISSUER?: string;

  /** SMTP server the sign-in codes are sent through, e.g. smtp://127.0.0.1:2525 (the local sink of the stack). */
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'PASS_SMTP_URL must be an smtp:// or smtps:// URL' })
  PASS_SMTP_URL?: string;

  /** From address of the sign-in e-mails. */
  @IsString()
  PASS_MAIL_FROM = 'Pass <pass@kyc.local>';

  /**
   * Directory where the sandbox messaging adapter writes the messages "sent" to users' phones (one JSON
   * line per message, file messages.jsonl). Without it the sandbox keeps them in memory only.
   */
  @IsOptional()
  @IsString()
  PASS_SANDBOX_OUTBOX_DIR?: string;

  /** Phone numbers the sandbox messaging adapter refuses (comma separated), to exercise `notifier_unavailable`. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value))
  PASS_SANDBOX_UNREACHABLE_PHONES: string[] = [];

  /**
   * Userinfo with the `background` scope waits at most this many milliseconds for a person's in-progress
   * background check to finish before answering (0: answer at once with the check still in progress).
   */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(30_000)
  PASS_BACKGROUND_REFRESH_MS = 5000;

  get issuer(): string {
    return (this.PASS_ISSUER ?? this.publicUrl).replace(/\/$/, '');
  }
}

/** Reads the pass service configuration from the environment (defaults: port 4006, schema pass). */
export const loadPassConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(PassConfig, env, { SERVICE_NAME: 'pass', PORT: SERVICES.pass.port, DB_SCHEMA: SERVICES.pass.schema });
