import { SERVICES } from '@kyc/contracts';
import { loadConfig, PlatformConfig } from '@kyc/platform';

export class EngagementConfig extends PlatformConfig {}

/** Reads the engagement service configuration from the environment (defaults: port 4004, schema engagement). */
export const loadEngagementConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(EngagementConfig, env, {
    SERVICE_NAME: 'engagement',
    PORT: SERVICES.engagement.port,
    DB_SCHEMA: SERVICES.engagement.schema,
  });
