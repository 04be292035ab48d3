import { SERVICES } from '@kyc/contracts';
import { ConfigValidationError, loadConfig, PlatformConfig } from '@kyc/platform';
import { IsIn, IsOptional, IsString, IsUrl, Matches } from 'class-validator';

export class IdentityConfig extends PlatformConfig {
  /** Base URL of the validations service (validator steps create their validations there). */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  IDENTITY_VALIDATIONS_URL: string = `http://localhost:${SERVICES.validations.port}`;

  /** Base URL of the engagement service (access links by messaging app are its outbound messages). */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  IDENTITY_ENGAGEMENT_URL: string = `http://localhost:${SERVICES.engagement.port}`;

  /** SMTP server of access-link e-mails, e.g. smtp://127.0.0.1:2525. Without it e-mail deliveries fail. */
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'IDENTITY_SMTP_URL must be an smtp:// or smtps:// URL' })
  IDENTITY_SMTP_URL?: string;

  /** From address of access-link e-mails. */
  @IsString()
  IDENTITY_MAIL_FROM = 'KYC identity <identity@kyc.local>';

  /** SMS provider of access links. Only the sandbox exists here: messages land in sandbox_phone_messages. */
  @IsIn(['sandbox'])
  IDENTITY_SMS_PROVIDER = 'sandbox';

  /** Engagement outbound that send-link uses when the request names none (OTB…). */
  @IsOptional()
  @Matches(/^OTB[0-9a-f]{32}$/, { message: 'IDENTITY_SEND_LINK_OUTBOUND_ID must be an outbound id (OTB…)' })
  IDENTITY_SEND_LINK_OUTBOUND_ID?: string;

  /** Base URL of the pass service (the wallet feed-wallet writes to). Without it feed-wallet answers 503. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  IDENTITY_PASS_URL?: string;

  /** Identity's OAuth client at pass (an application allowed the restricted scope validations:write). */
  @IsOptional()
  @IsString()
  IDENTITY_PASS_CLIENT_ID?: string;

  /** The secret of IDENTITY_PASS_CLIENT_ID (client_secret_post). */
  @IsOptional()
  @IsString()
  IDENTITY_PASS_CLIENT_SECRET?: string;

  /** The redirect URI the sign-up frame's authorization request used (sent with the code exchange). */
  @IsOptional()
  @IsString()
  IDENTITY_PASS_REDIRECT_URI?: string;
}

/**
 * Reads the identity service configuration (defaults: port 4003, schema identity). Identity
 * issues API keys, so it alone needs API_KEY_PRIVATE_KEY.
 */
export const loadIdentityConfig = (env: NodeJS.ProcessEnv = process.env) => {
  const config = loadConfig(IdentityConfig, env, {
    SERVICE_NAME: 'identity',
    PORT: SERVICES.identity.port,
    DB_SCHEMA: SERVICES.identity.schema,
  });
  if (!config.API_KEY_PRIVATE_KEY)
    throw new ConfigValidationError(
      'Invalid configuration for IdentityConfig:\n  API_KEY_PRIVATE_KEY: required (PEM of the Ed25519 key that signs API keys)',
    );
  return config;
};
