import { EnvNumber, loadConfig, PlatformConfig } from '@kyc/platform';
import { ConfigValidationError } from '@kyc/platform';
import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';

/** The console's port: the front door of the platform on a developer's machine. */
export const CONSOLE_PORT = 4000;

/** The seven services the console calls, with their default local URLs (the stack's ports). */
export const CONSOLE_SERVICES = {
  checks: 4001,
  account: 4002,
  identity: 4003,
  engagement: 4004,
  customers: 4005,
  pass: 4006,
  validations: 4007,
} as const;
export type ConsoleService = keyof typeof CONSOLE_SERVICES;

const url = (name: string) => Matches(/^https?:\/\/\S+$/, { message: `${name} must be an http(s) URL` });

export class ConsoleConfig extends PlatformConfig {
  /** Settings every replica must share (required with NODE_ENV=production or SERVICE_REPLICAS > 1). */
  static readonly SHARED_SECRETS = ['CONSOLE_SECRET_KEY'];

  /**
   * Secret of the console: peppers the stored one-time code hashes (HMAC-SHA256), at least 16
   * characters. Keep it stable and shared by every replica: required in production and with
   * SERVICE_REPLICAS > 1. A single development process without it uses a random one.
   */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'CONSOLE_SECRET_KEY must be at least 16 characters' })
  CONSOLE_SECRET_KEY?: string;

  /** SMTP server the sign-in codes are sent through, e.g. smtp://127.0.0.1:2525 (the stack's local sink). */
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'CONSOLE_SMTP_URL must be an smtp:// or smtps:// URL' })
  CONSOLE_SMTP_URL?: string;

  /** From address of the sign-in e-mails. */
  @IsString()
  CONSOLE_MAIL_FROM = 'KYC console <console@kyc.local>';

  /** A session unused this many minutes ends (idle timeout). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(24 * 60)
  CONSOLE_SESSION_IDLE_MINUTES = 30;

  /** A session ends this many hours after sign-in whatever its use (absolute timeout). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(7 * 24)
  CONSOLE_SESSION_ABSOLUTE_HOURS = 12;

  /**
   * Lifetime of the credential the console mints for each call to a service on behalf of the
   * signed-in user (a backend API key of that user, never sent to the browser).
   */
  @EnvNumber()
  @IsInt()
  @Min(30)
  @Max(900)
  CONSOLE_CALL_KEY_TTL_SECONDS = 120;

  /** Base URL of the checks service the console calls (default http://127.0.0.1:4001). */
  @IsOptional()
  @url('CONSOLE_CHECKS_URL')
  CONSOLE_CHECKS_URL?: string;

  /** Base URL of the account service the console calls (default http://127.0.0.1:4002). */
  @IsOptional()
  @url('CONSOLE_ACCOUNT_URL')
  CONSOLE_ACCOUNT_URL?: string;

  /** Base URL of the identity service the console calls (default http://127.0.0.1:4003). */
  @IsOptional()
  @url('CONSOLE_IDENTITY_URL')
  CONSOLE_IDENTITY_URL?: string;

  /** Base URL of the engagement service the console calls (default http://127.0.0.1:4004). */
  @IsOptional()
  @url('CONSOLE_ENGAGEMENT_URL')
  CONSOLE_ENGAGEMENT_URL?: string;

  /** Base URL of the customers service the console calls (default http://127.0.0.1:4005). */
  @IsOptional()
  @url('CONSOLE_CUSTOMERS_URL')
  CONSOLE_CUSTOMERS_URL?: string;

  /** Base URL of the pass service the console calls (default http://127.0.0.1:4006). */
  @IsOptional()
  @url('CONSOLE_PASS_URL')
  CONSOLE_PASS_URL?: string;

  /** Base URL of the validations service the console calls (default http://127.0.0.1:4007). */
  @IsOptional()
  @url('CONSOLE_VALIDATIONS_URL')
  CONSOLE_VALIDATIONS_URL?: string;

  /** Directory of the built single-page application (index.html and assets/); default: beside the server build. */
  @IsOptional()
  @IsString()
  CONSOLE_WEB_DIR?: string;

  /** The base URL of a service (CONSOLE_<SERVICE>_URL, default http://127.0.0.1:<its port>). */
  serviceUrl(service: ConsoleService): string {
    const set = (this as unknown as Record<string, string | undefined>)[`CONSOLE_${service.toUpperCase()}_URL`];
    return (set ?? `http://127.0.0.1:${CONSOLE_SERVICES[service]}`).replace(/\/$/, '');
  }

  /** Cookies are Secure unless the console is served over plain HTTP on the loopback (development). */
  get secureCookies(): boolean {
    return !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(this.publicUrl);
  }
}

/**
 * Reads the console configuration (defaults: port 4000, schema console). The console mints each
 * call's short-lived key of the signed-in user, so it needs API_KEY_PRIVATE_KEY (as identity does).
 */
export const loadConsoleConfig = (env: NodeJS.ProcessEnv = process.env) => {
  const config = loadConfig(ConsoleConfig, env, {
    SERVICE_NAME: 'console',
    PORT: 4000,
    DB_SCHEMA: 'console',
  });
  if (!config.API_KEY_PRIVATE_KEY)
    throw new ConfigValidationError(
      'Invalid configuration for ConsoleConfig:\n  API_KEY_PRIVATE_KEY: required (PEM of the Ed25519 key that signs API keys)',
    );
  return config;
};
