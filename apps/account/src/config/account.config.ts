import { SERVICES } from '@kyc/contracts';
import { EnvNumber, loadConfig, PlatformConfig } from '@kyc/platform';
import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';

export class AccountConfig extends PlatformConfig {
  /**
   * Key that seals secret values at rest (action env vars marked is_secret, webhook signing
   * secrets) with AES-256-GCM: 64 hex characters (`openssl rand -hex 32`), or a passphrase of at
   * least 16 characters (stretched with scrypt). Required; keep it stable (changing it makes
   * stored secrets unreadable).
   */
  @IsString()
  @MinLength(16, {
    message:
      'ACCOUNT_SECRETS_KEY must be 64 hex characters (openssl rand -hex 32) or a passphrase of at least 16 characters',
  })
  ACCOUNT_SECRETS_KEY!: string;

  /** SMTP server of email actions, e.g. smtp://127.0.0.1:2525 or smtps://user:pass@host:465. Without it email actions fail. */
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'ACCOUNT_SMTP_URL must be an smtp:// or smtps:// URL' })
  ACCOUNT_SMTP_URL?: string;

  /** From address of email actions. */
  @IsString()
  ACCOUNT_MAIL_FROM = 'KYC rules engine <rules@kyc.local>';

  /** A chain of checks created by create_check actions stops at this rule depth. */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(10)
  ACCOUNT_RULES_MAX_DEPTH = 3;
}

/** Reads the account service configuration from the environment (defaults: port 4002, schema account). */
export const loadAccountConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(AccountConfig, env, {
    SERVICE_NAME: 'account',
    PORT: SERVICES.account.port,
    DB_SCHEMA: SERVICES.account.schema,
  });
