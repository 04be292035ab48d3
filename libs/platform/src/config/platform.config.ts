import { readFileSync } from 'node:fs';

import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  Validate,
  ValidateIf,
  validateSync,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';

import type { KafkaConnection } from '../events/kafka';
import { parseTenantRateLimits } from '../http/rate-limit/rate-limit.config';
import { trustedProxies } from '../http/trusted-proxies';
import { EnvBoolean, EnvNumber } from './env-transforms';

@ValidatorConstraint({ name: 'isTenantRateLimits' })
class IsTenantRateLimits implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return parseTenantRateLimits(value) !== undefined;
  }

  defaultMessage(): string {
    return 'must be a JSON object {"<tenant_id>": {"per_second": n, "burst": n, "key_per_second": n, "key_burst": n}} of numbers >= 0';
  }
}

@ValidatorConstraint({ name: 'isTrustedProxies' })
class IsTrustedProxies implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && trustedProxies(value) !== undefined;
  }

  defaultMessage(): string {
    return 'must be comma-separated IP addresses or CIDR ranges (or loopback, linklocal, uniquelocal)';
  }
}

/**
 * Environment every service reads. Apps extend it with their own variables. Only config classes
 * read process.env; bad config fails at boot with every offending variable named.
 */
export class PlatformConfig {
  /** Name in logs, metrics and Kafka client ids (set by each service's loader). */
  @IsString()
  SERVICE_NAME!: string;

  /** HTTP port (each service has its own default, see SERVICES). */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT!: number;

  /** Listen address. */
  @IsString()
  HOST = '0.0.0.0';

  /** PostgreSQL URL, e.g. postgres://user:password@host:5432/kyc. */
  @IsString()
  DATABASE_URL!: string;

  /**
   * DATABASE_URL goes through a pooler in transaction mode (PgBouncer `pool_mode = transaction`;
   * docs/deployment.md, "PgBouncer"): the service keeps no session state across statements. It
   * sends no startup `search_path` (the pooler's `connect_query` sets it for the service's
   * database alias) and no named prepared statements; migrations use DATABASE_DIRECT_URL.
   */
  @EnvBoolean()
  @IsBoolean()
  DB_TRANSACTION_POOLER = false;

  /**
   * PostgreSQL itself, not through a pooler: migrations (`migrate`, DB_MIGRATE_ON_START) hold a
   * session advisory lock on it. Default: DATABASE_URL.
   */
  @IsOptional()
  @IsString()
  DATABASE_DIRECT_URL?: string;

  /** The service's schema (every table of the service lives there). */
  @IsString()
  DB_SCHEMA!: string;

  /** Connections of the service's pool (the outbox relay's thread holds two more). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  DB_POOL_SIZE = 20;

  /** Apply pending migrations at boot (the stack command sets it; Kubernetes runs `migrate` in an init container instead). */
  @EnvBoolean()
  @IsBoolean()
  DB_MIGRATE_ON_START = false;

  /** Comma-separated host:port list. */
  @IsString()
  KAFKA_BROKERS!: string;

  /**
   * Prefix of the service's Kafka client ids (`<id>`, `<id>-consumer`, `<id>-producer`), for the
   * cluster's quotas, ACL audit and logs. Default: the service name.
   */
  @IsOptional()
  @IsString()
  KAFKA_CLIENT_ID?: string;

  /** Connect to the brokers over TLS (managed clusters: Amazon MSK, Confluent Cloud, Aiven). */
  @EnvBoolean()
  @IsBoolean()
  KAFKA_SSL = false;

  /**
   * PEM file of the CA that signed the brokers' certificates, when it is not a public one (with
   * KAFKA_SSL). Unset: Node's bundled public CAs.
   */
  @IsOptional()
  @IsString()
  KAFKA_SSL_CA_FILE?: string;

  /** The same CA as PEM text (for a secret mounted as a variable); KAFKA_SSL_CA_FILE wins when both are set. */
  @IsOptional()
  @IsString()
  KAFKA_SSL_CA?: string;

  /**
   * SASL mechanism of the brokers' listener: plain, scram-sha-256 or scram-sha-512, in any case
   * (Kafka's own spelling, `SCRAM-SHA-512`, too). Unset: no SASL.
   */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsIn(['plain', 'scram-sha-256', 'scram-sha-512'])
  KAFKA_SASL_MECHANISM?: 'plain' | 'scram-sha-256' | 'scram-sha-512';

  /** SASL user name (required with KAFKA_SASL_MECHANISM). */
  @ValidateIf((c: PlatformConfig) => c.KAFKA_SASL_MECHANISM !== undefined)
  @IsString()
  KAFKA_SASL_USERNAME?: string;

  /** SASL password (required with KAFKA_SASL_MECHANISM; mount it from a secret). */
  @ValidateIf((c: PlatformConfig) => c.KAFKA_SASL_MECHANISM !== undefined)
  @IsString()
  KAFKA_SASL_PASSWORD?: string;

  /** Kafka consumer group of the service's event handlers (default: the service name). */
  @IsOptional()
  @IsString()
  KAFKA_CONSUMER_GROUP?: string;

  /**
   * Partitions whose events a service's consumer handles at the same time (one event at a time
   * per partition, so each key keeps its order). An event's handler mostly waits on its commit,
   * so handling one partition at a time held consumers back (docs/decisions/kafka-partitions-concurrency.md).
   * The platform's event topics have 3 partitions.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(64)
  KAFKA_PARTITIONS_CONCURRENCY = 3;

  /**
   * How long a consumer's fetch (the event handlers', the access cache's) waits at the broker for
   * records when none are there. Records are handed over as soon as they arrive, whatever this is;
   * a consumer stopping waits for its fetch under way, so this also bounds how long a shutdown waits.
   */
  @EnvNumber()
  @IsInt()
  @Min(10)
  @Max(10_000)
  KAFKA_CONSUMER_MAX_WAIT_MS = 500;

  /** PEM (SPKI) of the platform's Ed25519 key: verifies API keys offline. */
  @IsString()
  API_KEY_PUBLIC_KEY!: string;

  /** PEM (PKCS#8) of the platform's Ed25519 private key: signs API keys. Identity only. */
  @IsOptional()
  @IsString()
  API_KEY_PRIVATE_KEY?: string;

  /** Log level of the JSON logs on stdout. */
  @IsIn(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
  LOG_LEVEL = 'info';

  /** How often the outbox relay looks for events committed by other processes (it is also kicked after its own commits, at most every 20 ms). */
  @EnvNumber()
  @IsInt()
  @Min(10)
  OUTBOX_POLL_MS = 100;

  /** How often the job queue looks for due jobs (it also runs right after each commit of its process). */
  @EnvNumber()
  @IsInt()
  @Min(10)
  JOBS_POLL_MS = 200;

  /**
   * Background jobs yield to callers: while this many HTTP requests are in flight in the process
   * (it is saturated), each queue runs at most one job and claims only at its poll, so the backlog
   * waits instead of slowing the API; it catches up when the load passes. 0: never yield. A queue
   * registered with `yields: false` (the validations engines, whose work runs on threads below normal
   * priority; engagement's provider webhooks, whose jobs are the rest of the requests that queue them)
   * keeps its concurrency. An open server-sent event stream (the agent inbox's push channel) is not
   * counted: it waits idle for events.
   */
  @EnvNumber()
  @IsInt()
  @Min(0)
  JOBS_YIELD_AT = 8;

  /**
   * Finished jobs (completed or failed) are deleted this many hours after they finished, so the
   * jobs table holds the work in flight and recent history, not every job ever run. A job's
   * dedupe key is free again once it is deleted. 0: keep them.
   */
  @EnvNumber()
  @IsInt()
  @Min(0)
  JOBS_RETENTION_HOURS = 168;

  /**
   * Bytes of a JSON or form body a route accepts unless it declares more with @BodyLimit (uploads
   * have parsers and limits of their own). Larger bodies get 413 before they are read.
   */
  @EnvNumber()
  @IsInt()
  @Min(1024)
  HTTP_BODY_LIMIT_BYTES = 1_048_576;

  /** The most any route may raise its body limit to (@BodyLimit); Fastify's own ceiling. */
  @EnvNumber()
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
   * OpenTelemetry: the OTLP/HTTP collector that receives this service's traces (e.g.
   * `http://otel-collector:4318`; spans go to `<endpoint>/v1/traces`). Unset: tracing is off and
   * no OpenTelemetry SDK module is loaded. The standard OTEL_* variables apply (OTEL_SERVICE_NAME,
   * default the service name; OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, default
   * parentbased_always_on; OTEL_EXPORTER_OTLP_HEADERS; OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). Spans
   * are sent as OTLP/HTTP with JSON bodies. See docs/operations.md, "Tracing". Read at process
   * start, before this config (tracing.settings.ts).
   */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

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

  /**
   * How often the gauges an operator alerts on are sampled (outbox backlog, job queues, parked
   * events, consumer lag; docs/operations.md), on a timer of their own, whatever the relay and
   * consumers are doing.
   */
  @EnvNumber()
  @IsInt()
  @Min(100)
  METRICS_SAMPLE_MS = 15_000;

  /**
   * Requests per second each tenant may make to this service: a token bucket per tenant shared by
   * the service's replicas (docs/security.md, "Rate limits"). 0: no tenant limit.
   */
  @EnvNumber()
  @IsNumber()
  @Min(0)
  RATE_LIMIT_TENANT_PER_SECOND = 200;

  /** Requests a tenant may make at once above its rate (its bucket's size). Default: twice RATE_LIMIT_TENANT_PER_SECOND. */
  @IsOptional()
  @EnvNumber()
  @IsNumber()
  @Min(1)
  RATE_LIMIT_TENANT_BURST?: number;

  /** Requests per second each API key may make to this service (a bucket per key, within its tenant's). 0: no key limit. */
  @EnvNumber()
  @IsNumber()
  @Min(0)
  RATE_LIMIT_KEY_PER_SECOND = 100;

  /** Requests an API key may make at once above its rate (its bucket's size). Default: twice RATE_LIMIT_KEY_PER_SECOND. */
  @IsOptional()
  @EnvNumber()
  @IsNumber()
  @Min(1)
  RATE_LIMIT_KEY_BURST?: number;

  /**
   * Operators' limits per tenant as JSON, overriding the defaults above for the tenants named:
   * {"<tenant_id>": {"per_second": 50, "burst": 100, "key_per_second": 20, "key_burst": 40}}
   * (each field optional; 0 per second: no limit).
   */
  @IsString()
  @Validate(IsTenantRateLimits)
  RATE_LIMIT_TENANTS = '{}';

  /**
   * How often each process adds the requests it let through to the shared buckets and learns the
   * other replicas' (one statement for every bucket it touched). Replicas together can exceed a
   * limit by what it refills in this time, times the replicas less one.
   */
  @EnvNumber()
  @IsInt()
  @Min(10)
  RATE_LIMIT_SYNC_MS = 200;

  /**
   * The reverse proxies (ingress, load balancer) whose X-Forwarded-For, -Proto and -Host the service
   * believes: comma-separated addresses or CIDR ranges (or loopback, linklocal, uniquelocal). Empty:
   * none, so a client's own X-Forwarded-For is ignored and its address is the connection's.
   */
  @IsString()
  @Validate(IsTrustedProxies)
  TRUSTED_PROXIES = '';

  /**
   * Requests per second each client address (request.ip) may make to the routes that carry no API
   * key (pass pages, identity's end-user page, upload and media links): a token bucket per address
   * shared by the replicas. Health, metrics, docs and signed provider webhooks are not limited. 0: no limit.
   */
  @EnvNumber()
  @IsNumber()
  @Min(0)
  RATE_LIMIT_CLIENT_PER_SECOND = 10;

  /** Requests a client address may make at once above its rate on those routes. Default: ten times RATE_LIMIT_CLIENT_PER_SECOND. */
  @IsOptional()
  @EnvNumber()
  @IsNumber()
  @Min(1)
  RATE_LIMIT_CLIENT_BURST?: number;

  /** One-time codes (docs/security.md, "One-time codes"): wrong guesses one code allows, unless its use allows fewer. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  OTP_MAX_ATTEMPTS_PER_CODE = 5;

  /**
   * One-time codes: wrong guesses a person (an e-mail, an account) may make in OTP_ATTEMPT_WINDOW_SECONDS
   * across all the codes sent to them; the last one starts a lockout.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  OTP_MAX_ATTEMPTS_PER_SUBJECT = 10;

  /** One-time codes: the window, in seconds, the wrong guesses of a person are counted in. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  OTP_ATTEMPT_WINDOW_SECONDS = 3600;

  /** One-time codes: codes sent to one address (e-mail, phone) an hour; more start a lockout. 0: no limit. */
  @EnvNumber()
  @IsInt()
  @Min(0)
  OTP_ISSUE_PER_ADDRESS_PER_HOUR = 5;

  /** One-time codes: codes one client address (request.ip of a person's device) may ask for an hour; more start a lockout. 0: no limit. */
  @EnvNumber()
  @IsInt()
  @Min(0)
  OTP_ISSUE_PER_CLIENT_PER_HOUR = 20;

  /** One-time codes: seconds of the first lockout of a person or an address; each further one lasts twice the one before. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  OTP_LOCKOUT_SECONDS = 900;

  /** One-time codes: the longest lockout, in seconds. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  OTP_MAX_LOCKOUT_SECONDS = 86400;

  /**
   * `production` (the image sets it): every shared secret of the service (its config class's
   * SHARED_SECRETS, e.g. VALIDATIONS_SECRET_KEY) must be set, never drawn per process.
   */
  @IsOptional()
  @IsString()
  NODE_ENV?: string;

  /**
   * Replicas of this service the deployment may run at once (its autoscaler's maximum). More than
   * one: every shared secret must be set, as in production (replicas must agree on it).
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  SERVICE_REPLICAS = 1;

  /** Public base URL of this service, used for links (pagination, uploads); defaults to http://127.0.0.1:PORT. */
  @IsOptional()
  @IsString()
  PUBLIC_URL?: string;

  get kafkaBrokers(): string[] {
    return this.KAFKA_BROKERS.split(',')
      .map((b) => b.trim())
      .filter(Boolean);
  }

  /** How every Kafka client of the service connects (client id prefix, brokers, TLS, SASL); plain data, also sent to the relay thread. */
  get kafkaConnection(): KafkaConnection {
    return {
      clientId: this.KAFKA_CLIENT_ID ?? this.SERVICE_NAME,
      brokers: this.kafkaBrokers,
      ...(this.KAFKA_SSL
        ? {
            ssl: this.KAFKA_SSL_CA_FILE
              ? { ca: [readFileSync(this.KAFKA_SSL_CA_FILE, 'utf8')] }
              : this.KAFKA_SSL_CA
                ? { ca: [this.KAFKA_SSL_CA] }
                : true,
          }
        : {}),
      ...(this.KAFKA_SASL_MECHANISM
        ? {
            sasl: {
              mechanism: this.KAFKA_SASL_MECHANISM,
              username: this.KAFKA_SASL_USERNAME!,
              password: this.KAFKA_SASL_PASSWORD!,
            },
          }
        : {}),
    };
  }

  /** Shared secrets must be set: production mode, or more than one replica configured. */
  get sharedSecretsRequired(): boolean {
    return this.NODE_ENV === 'production' || this.SERVICE_REPLICAS > 1;
  }

  get publicUrl(): string {
    return (this.PUBLIC_URL ?? `http://127.0.0.1:${this.PORT}`).replace(/\/$/, '');
  }
}

export class ConfigValidationError extends Error {}

/**
 * A config class may name its shared secrets: settings every replica must hold the same value of,
 * which a single development process may leave unset (it then draws its own). With
 * `sharedSecretsRequired` each unset one refuses the start.
 */
export interface SharedSecrets {
  readonly SHARED_SECRETS?: readonly string[];
}

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
  const shared = (cls as unknown as SharedSecrets).SHARED_SECRETS ?? [];
  const unset = shared.filter((name) => !(config as unknown as Record<string, unknown>)[name]);
  if (config.sharedSecretsRequired && unset.length) {
    const why =
      config.NODE_ENV === 'production' ? 'NODE_ENV=production' : `SERVICE_REPLICAS=${config.SERVICE_REPLICAS}`;
    const lines = unset.map(
      (name) =>
        `  ${name}: required with ${why}: every replica must use the same value (set it from a Secret), a random per-process one breaks links and codes across replicas`,
    );
    throw new ConfigValidationError(`Invalid configuration for ${cls.name}:\n${lines.join('\n')}`);
  }
  return config;
}
