import { loadConfig, PlatformConfig } from '@kyc/platform';
import { SERVICES } from '@kyc/contracts';

export class CustomersConfig extends PlatformConfig {}

/** Reads the customers service configuration from the environment (defaults: port 4005, schema customers). */
export const loadCustomersConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(CustomersConfig, env, {
    SERVICE_NAME: 'customers',
    PORT: SERVICES.customers.port,
    DB_SCHEMA: SERVICES.customers.schema,
  });
