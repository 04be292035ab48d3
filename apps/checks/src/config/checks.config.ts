import { createHmac, scryptSync } from 'node:crypto';

import { SERVICES } from '@kyc/contracts';
import { EnvBoolean, EnvNumber, loadConfig, PlatformConfig } from '@kyc/platform';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  Min,
  MinLength,
  Validate,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';

const isBase64Key = (value: string) =>
  /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32;

/** 32 bytes in base64 (an AES-256 key), or a passphrase of at least 16 characters. */
@ValidatorConstraint({ name: 'isAes256Key' })
class IsAes256Key implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && (isBase64Key(value) || value.length >= 16);
  }

  defaultMessage(): string {
    return 'must be 32 random bytes in base64 (openssl rand -base64 32) or a passphrase of at least 16 characters';
  }
}

/** A JSON object of per-database sandbox overrides: {"<database_id>": {"latency_ms": n, "failure_rate": 0..1}}. */
@ValidatorConstraint({ name: 'isSandboxOverrides' })
class IsSandboxOverrides implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return parseSandboxOverrides(value) !== undefined;
  }

  defaultMessage(): string {
    return 'must be a JSON object {"<database_id>": {"latency_ms": <ms >= 0>, "failure_rate": <0..1>}}';
  }
}

export interface SandboxOverride {
  latency_ms?: number;
  failure_rate?: number;
}

export function parseSandboxOverrides(value: unknown): Record<string, SandboxOverride> | undefined {
  if (typeof value !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  for (const entry of Object.values(parsed as Record<string, unknown>)) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
    const { latency_ms, failure_rate, ...rest } = entry as Record<string, unknown>;
    if (Object.keys(rest).length) return undefined;
    if (latency_ms !== undefined && !(typeof latency_ms === 'number' && latency_ms >= 0)) return undefined;
    if (failure_rate !== undefined && !(typeof failure_rate === 'number' && failure_rate >= 0 && failure_rate <= 1))
      return undefined;
  }
  return parsed as Record<string, SandboxOverride>;
}

export class ChecksConfig extends PlatformConfig {
  /** A check with identical inputs created within this window is returned instead of a new one (unless force_creation). */
  @EnvNumber()
  @IsInt()
  @Min(0)
  CHECKS_DEDUP_WINDOW_SECONDS = 600;

  /**
   * Group commit of check creation: how many create statements may run at once; checks created
   * meanwhile wait and are stored together by the next one (one commit for many). 1 to 20.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(20)
  CHECKS_CREATE_GROUP_IN_FLIGHT = 4;

  /** Runs the check engine (start, collector, timer and sandbox jobs) in this process. */
  @EnvBoolean()
  @IsBoolean()
  CHECKS_WORKER_ENABLED = true;

  /**
   * Collector jobs one process runs at the same time. A job is mostly a wait (on the database's answer and on its
   * round trips to PostgreSQL), so many more run than there are cores; each database is still asked at most
   * CHECKS_COLLECTOR_CONCURRENCY_PER_DATABASE times at once (docs/decisions/checks-worker-concurrency.md).
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(2000)
  CHECKS_WORKER_CONCURRENCY = 256;

  /** Asks of one database (collector) one process makes at the same time, across its collector and start jobs. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(2000)
  CHECKS_COLLECTOR_CONCURRENCY_PER_DATABASE = 64;

  /**
   * The start job of a check asks, inline and concurrently, every synchronous database whose
   * answer time (Collector.answerLatencyMs; sandbox: after CHECKS_SANDBOX_LATENCY_SCALE) is at most
   * this and has no first-ask delay, and records their answers in the transaction that starts the
   * check; the others get a job each. 0 turns this off (every database gets its own job).
   */
  @EnvNumber()
  @IsInt()
  @Min(0)
  CHECKS_INLINE_COLLECT_MAX_MS = 2_000;

  /** Check starts (plan, inline asks, first settle) one process runs at the same time; as many again for start jobs queued by a replica of the previous version. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(500)
  CHECKS_START_CONCURRENCY = 16;

  /** How long a claimed engine job stays locked; a process that dies loses its jobs to another after this. */
  @EnvNumber()
  @IsInt()
  @Min(500)
  CHECKS_WORKER_LOCK_MS = 60_000;

  /**
   * AES-256-GCM key that encrypts collector credentials at rest and derives webhook secrets: 32 random
   * bytes in base64 (openssl rand -base64 32), or a passphrase of at least 16 characters (stretched
   * with scrypt). Required; keep it stable (another key cannot open stored credentials).
   */
  @IsString()
  @Validate(IsAes256Key)
  CHECKS_CREDENTIALS_KEY!: string;

  /** Multiplies the nominal answer time of every sandbox database (0: answers at once; tests). */
  @EnvNumber()
  @IsNumber()
  @Min(0)
  CHECKS_SANDBOX_LATENCY_SCALE = 1;

  /** Share of sandbox database queries that fail (0..1), for every sandbox database without an override. */
  @EnvNumber()
  @IsNumber()
  @Min(0)
  @Max(1)
  CHECKS_SANDBOX_FAILURE_RATE = 0;

  /** Per-database sandbox overrides as JSON: {"sandbox-co-police": {"latency_ms": 5000, "failure_rate": 0.5}}. */
  @IsString()
  @Validate(IsSandboxOverrides)
  CHECKS_SANDBOX_DATABASES = '{}';

  /**
   * HMAC key that signs batch file upload links (any string of at least 16 characters). Default:
   * derived from CHECKS_CREDENTIALS_KEY. Every replica must use the same key.
   */
  @IsOptional()
  @IsString()
  @MinLength(16)
  CHECKS_UPLOAD_SIGNING_KEY?: string;

  /** Largest batch xlsx file accepted (bytes). */
  @EnvNumber()
  @IsInt()
  @Min(1024)
  CHECKS_BATCH_MAX_FILE_BYTES = 20 * 1024 * 1024;

  /** Most rows one batch may have. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  CHECKS_BATCH_MAX_ROWS = 100_000;

  /**
   * Most rows read from a batch file's sheet, empty ones included (a sheet of millions of empty rows is refused
   * once this many were read, before it costs more time).
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  CHECKS_BATCH_MAX_SHEET_ROWS = 200_000;

  /** Largest uncompressed size of any one part of a batch xlsx (its sheet, its shared strings...), in bytes. */
  @EnvNumber()
  @IsInt()
  @Min(64 * 1024)
  CHECKS_BATCH_MAX_PART_BYTES = 64 * 1024 * 1024;

  /** Most shared strings (distinct texts) a batch xlsx may hold. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  CHECKS_BATCH_MAX_SHARED_STRINGS = 1_000_000;

  /** Longest text of one cell or shared string of a batch xlsx (32,767 is Excel's own limit). */
  @EnvNumber()
  @IsInt()
  @Min(256)
  CHECKS_BATCH_MAX_TEXT_CHARS = 32_767;

  /** Time a batch file may take to read, in milliseconds (on its own thread; over it the upload is refused). */
  @EnvNumber()
  @IsInt()
  @Min(1000)
  CHECKS_BATCH_PARSE_TIMEOUT_MS = 20_000;

  /** Heap of the thread that reads one batch file (MiB). */
  @EnvNumber()
  @IsInt()
  @Min(32)
  CHECKS_BATCH_PARSE_MEMORY_MB = 192;

  /** Batch files one process reads at the same time (the others wait their turn). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(16)
  CHECKS_BATCH_PARSE_CONCURRENCY = 1;

  /** Files an upload link accepts tries for: each refused file counts, and then the link is spent. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(100)
  CHECKS_BATCH_UPLOAD_ATTEMPTS = 3;

  /** Rows one batch job creates checks for (a job per chunk). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(10_000)
  CHECKS_BATCH_ROWS_PER_JOB = 500;

  /** Batch chunk jobs one process runs at the same time. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(64)
  CHECKS_BATCH_CONCURRENCY = 2;

  /** Where batch files go: the service itself (local, default) or S3-compatible storage (s3, presigned URLs). */
  @IsIn(['local', 's3'])
  CHECKS_BATCH_STORAGE: 'local' | 's3' = 'local';

  /**
   * S3 storage: the endpoint of an S3-compatible store (e.g. http://minio:9000). Unset: AWS S3 of
   * CHECKS_S3_REGION.
   */
  @IsOptional() @IsString() CHECKS_S3_ENDPOINT?: string;
  /** S3 storage: the bucket of batch files (required with CHECKS_BATCH_STORAGE=s3). */
  @IsOptional() @IsString() CHECKS_S3_BUCKET?: string;
  /** S3 storage: the bucket's region. Unset: the AWS SDK's (AWS_REGION, the profile). */
  @IsOptional() @IsString() CHECKS_S3_REGION?: string;
  /**
   * S3 storage: access key id. Unset (with CHECKS_S3_SECRET_ACCESS_KEY): the AWS SDK's default
   * credential chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, EKS web identity, ECS/EC2 roles, AWS_PROFILE).
   */
  @IsOptional() @IsString() CHECKS_S3_ACCESS_KEY_ID?: string;
  /** S3 storage: secret access key, set together with CHECKS_S3_ACCESS_KEY_ID. */
  @IsOptional() @IsString() CHECKS_S3_SECRET_ACCESS_KEY?: string;
  /** Path-style URLs (endpoint/bucket/key), as MinIO needs; default virtual-hosted (bucket.endpoint/key). */
  @EnvBoolean()
  @IsBoolean()
  CHECKS_S3_FORCE_PATH_STYLE = false;

  /** The key that signs batch upload links. */
  get uploadSigningKey(): Buffer {
    if (this.CHECKS_UPLOAD_SIGNING_KEY) return Buffer.from(this.CHECKS_UPLOAD_SIGNING_KEY, 'utf8');
    return Buffer.from(createHmac('sha256', this.credentialsKey).update('kyc-checks-batch-upload-links').digest());
  }

  get sandboxOverrides(): Record<string, SandboxOverride> {
    return parseSandboxOverrides(this.CHECKS_SANDBOX_DATABASES) ?? {};
  }

  /** The AES-256 key: the 32 bytes given, or derived from a passphrase with scrypt. */
  get credentialsKey(): Buffer {
    if (isBase64Key(this.CHECKS_CREDENTIALS_KEY)) return Buffer.from(this.CHECKS_CREDENTIALS_KEY, 'base64');
    return scryptSync(this.CHECKS_CREDENTIALS_KEY, 'kyc-checks-credentials', 32);
  }
}

/** Reads the checks service configuration from the environment (defaults: port 4001, schema checks). */
export const loadChecksConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(ChecksConfig, env, {
    SERVICE_NAME: 'checks',
    PORT: SERVICES.checks.port,
    DB_SCHEMA: SERVICES.checks.schema,
  });
