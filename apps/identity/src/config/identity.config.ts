import { SERVICES } from '@kyc/contracts';
import { ConfigValidationError, loadConfig, PlatformConfig } from '@kyc/platform';
import { IsOptional, IsUrl } from 'class-validator';

export class IdentityConfig extends PlatformConfig {
  /** Base URL of the validations service (validator steps create their validations there). */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  IDENTITY_VALIDATIONS_URL: string = `http://localhost:${SERVICES.validations.port}`;
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
