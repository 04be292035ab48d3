import { SERVICES } from '@kyc/contracts';
import { EnvNumber, loadConfig, PlatformConfig } from '@kyc/platform';
import { IsInt, Max, Min } from 'class-validator';

export class CustomersConfig extends PlatformConfig {
  /** Profiles per step of a push-down segment compute (one INSERT … SELECT and one progress update per step). */
  @EnvNumber()
  @IsInt()
  @Min(1_000)
  @Max(10_000_000)
  CUSTOMERS_SEGMENT_SQL_CHUNK = 1_000_000;

  /** Profiles per batch of a segment compute evaluated in Node (rules the SQL translation refuses). */
  @EnvNumber()
  @IsInt()
  @Min(100)
  @Max(100_000)
  CUSTOMERS_SEGMENT_NODE_BATCH = 5_000;

  /**
   * Lease of a segment compute job (ms): a compute whose process died is taken up again by another
   * worker once it expires, at its cursor. It must outlast the longest compute.
   */
  @EnvNumber()
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  CUSTOMERS_SEGMENT_LEASE_MS = 600_000;
}

/** Reads the customers service configuration from the environment (defaults: port 4005, schema customers). */
export const loadCustomersConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(CustomersConfig, env, {
    SERVICE_NAME: 'customers',
    PORT: SERVICES.customers.port,
    DB_SCHEMA: SERVICES.customers.schema,
  });
