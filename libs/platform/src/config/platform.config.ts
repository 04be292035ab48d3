import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min, validateSync } from 'class-validator';

const toBool = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? ['true', '1', 'yes'].includes(value.toLowerCase()) : value;

/**
 * Environment every service reads. Apps extend it with their own variables. Only config classes
 * read process.env; bad config fails at boot with every offending variable named.
 */
export class PlatformConfig {
  @IsString()
  SERVICE_NAME: string;

  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number;

  @IsString()
  HOST = '0.0.0.0';

  @IsString()
  DATABASE_URL: string;

  @IsString()
  DB_SCHEMA: string;

  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  DB_POOL_SIZE = 20;

  @Transform(toBool)
  @IsBoolean()
  DB_MIGRATE_ON_START = false;

  /** Comma-separated host:port list. */
  @IsString()
  KAFKA_BROKERS: string;

  /** Kafka consumer group of the service's event handlers (default: the service name). */
  @IsOptional()
  @IsString()
  KAFKA_CONSUMER_GROUP?: string;

  /**
   * Partitions whose events a service's consumer handles at the same time (one event at a time
   * per partition, so each key keeps its order). An event's handler mostly waits on its commit,
   * so one partition at a time held the account service to about 80 checks.check.finished events
   * a second on 2 cores. The platform's event topics have 3 partitions.
   */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  @Max(64)
  KAFKA_PARTITIONS_CONCURRENCY = 3;

  /** PEM (SPKI) of the platform's Ed25519 key: verifies API keys offline. */
  @IsString()
  API_KEY_PUBLIC_KEY: string;

  @IsOptional()
  @IsString()
  API_KEY_PRIVATE_KEY?: string;

  @IsIn(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
  LOG_LEVEL = 'info';

  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(10)
  OUTBOX_POLL_MS = 100;

  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(10)
  JOBS_POLL_MS = 200;

  /**
   * Background jobs yield to callers: while this many HTTP requests are in flight in the process
   * (it is saturated), each queue runs at most one job and claims only at its poll, so the backlog
   * waits instead of slowing the API; it catches up when the load passes. 0: never yield.
   */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(0)
  JOBS_YIELD_AT = 8;

  /**
   * Finished jobs (completed or failed) are deleted this many hours after they finished, so the
   * jobs table holds the work in flight and recent history, not every job ever run. A job's
   * dedupe key is free again once it is deleted. 0: keep them.
   */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(0)
  JOBS_RETENTION_HOURS = 168;

  /**
   * Bytes of a JSON or form body a route accepts unless it declares more with @BodyLimit (uploads
   * have parsers and limits of their own). Larger bodies get 413 before they are read.
   */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1024)
  HTTP_BODY_LIMIT_BYTES = 1_048_576;

  /** The most any route may raise its body limit to (@BodyLimit); Fastify's own ceiling. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1024)
  HTTP_MAX_BODY_BYTES = 52_428_800;

  /**
   * Outbound HTTP calls a tenant can aim (rules actions, webhooks) refuse internal addresses
   * (loopback, private, link-local, CGNAT, multicast, unspecified; see libs/platform/src/http/
   * outbound-http.ts). Comma-separated exceptions for development: CIDR ranges (`127.0.0.0/8`,
   * `::1/128`), addresses, or `loopback` / `private` for those whole groups. Empty in production.
   */
  @IsOptional()
  @IsString()
  OUTBOUND_HTTP_ALLOW?: string;

  /**
   * Serves /metrics on this port only, on a listener of its own, instead of on the service port
   * (which then answers 404 there): the deploy manifests set it so that metrics, which need no
   * key, are not reachable through the service's Service/Ingress. Unset (the local stack): on the
   * service port.
   */
  @IsOptional()
  @Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value)))
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT?: number;

  /** Public base URL of this service, used for links (pagination, uploads); defaults to http://127.0.0.1:PORT. */
  @IsOptional()
  @IsString()
  PUBLIC_URL?: string;

  get kafkaBrokers(): string[] {
    return this.KAFKA_BROKERS.split(',')
      .map((b) => b.trim())
      .filter(Boolean);
  }

  get publicUrl(): string {
    return (this.PUBLIC_URL ?? `http://127.0.0.1:${this.PORT}`).replace(/\/$/, '');
  }
}

export class ConfigValidationError extends Error {}

/** Reads and validates the environment into `cls`; throws naming every bad variable. */
export function loadConfig<T extends PlatformConfig>(
  cls: new () => T,
  env: NodeJS.ProcessEnv = process.env,
  defaults: Partial<Record<keyof T, unknown>> = {},
): T {
  const raw: Record<string, unknown> = { ...defaults };
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') raw[k] = v;
  const config = plainToInstance(cls, raw, { exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, skipMissingProperties: false });
  if (errors.length) {
    const lines = errors.map((e) => `  ${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigValidationError(`Invalid configuration for ${cls.name}:\n${lines.join('\n')}`);
  }
  return config;
}
