import { SERVICES } from '@kyc/contracts';
import { loadConfig, PlatformConfig } from '@kyc/platform';

export class ValidationsConfig extends PlatformConfig {}

/** Reads the validations service configuration from the environment (defaults: port 4007, schema validations). */
export const loadValidationsConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(ValidationsConfig, env, {
    SERVICE_NAME: 'validations',
    PORT: SERVICES.validations.port,
    DB_SCHEMA: SERVICES.validations.schema,
  });
