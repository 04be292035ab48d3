import { SERVICES } from '@kyc/contracts';
import { loadConfig, PlatformConfig } from '@kyc/platform';

export class PassConfig extends PlatformConfig {}

/** Reads the pass service configuration from the environment (defaults: port 4006, schema pass). */
export const loadPassConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(PassConfig, env, { SERVICE_NAME: 'pass', PORT: SERVICES.pass.port, DB_SCHEMA: SERVICES.pass.schema });
