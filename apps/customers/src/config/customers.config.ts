import { SERVICES } from '@kyc/contracts';
import { loadConfig, PlatformConfig } from '@kyc/platform';

export class CustomersConfig extends PlatformConfig {}

/** Reads the customers service configuration from the environment (defaults: port 4005, schema customers). */
export const loadCustomersConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(CustomersConfig, env, {
    SERVICE_NAME: 'customers',
    PORT: SERVICES.customers.port,
    DB_SCHEMA: SERVICES.customers.schema,
  });
