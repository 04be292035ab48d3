import { loadConfig, PlatformConfig } from '@kyc/platform';
import { SERVICES } from '@kyc/contracts';

export class AccountConfig extends PlatformConfig {}

/** Reads the account service configuration from the environment (defaults: port 4002, schema account). */
export const loadAccountConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(AccountConfig, env, { SERVICE_NAME: 'account', PORT: SERVICES.account.port, DB_SCHEMA: SERVICES.account.schema });
