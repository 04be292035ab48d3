import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, Min } from 'class-validator';
import { SERVICES } from '@kyc/contracts';
import { loadConfig, PlatformConfig } from '@kyc/platform';

export class ChecksConfig extends PlatformConfig {
  /** A check with identical inputs created within this window is returned instead of a new one (unless force_creation). */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(0)
  CHECKS_DEDUP_WINDOW_SECONDS = 600;

  /** Runs the check worker in this process. */
  @Transform(({ value }) => (typeof value === 'string' ? value === 'true' : value))
  @IsBoolean()
  CHECKS_WORKER_ENABLED = true;

  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(10)
  CHECKS_WORKER_POLL_MS = 200;

  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  CHECKS_WORKER_BATCH = 50;
}

/** Reads the checks service configuration from the environment (defaults: port 4001, schema checks). */
export const loadChecksConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(ChecksConfig, env, { SERVICE_NAME: 'checks', PORT: SERVICES.checks.port, DB_SCHEMA: SERVICES.checks.schema });
