import { scryptSync } from 'node:crypto';

import { SERVICES } from '@kyc/contracts';
import { EnvBoolean, EnvNumber, loadConfig, PlatformConfig } from '@kyc/platform';
import { IsBoolean, IsInt, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';

const isBase64Key = (value: string) =>
  /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32;

export class EngagementConfig extends PlatformConfig {
  /**
   * Seals the tenants' messaging-provider credentials at rest (AES-256-GCM): 32 random bytes in
   * base64, or a passphrase of at least 16 characters (stretched with scrypt). Keep it stable.
   */
  @IsString()
  @MinLength(16)
  ENGAGEMENT_CREDENTIALS_KEY!: string;

  /** Base URL of the WhatsApp Cloud API (Graph API, version included); the stack points it at the sandbox provider. */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  ENGAGEMENT_GRAPH_BASE_URL = 'https://graph.facebook.com/v21.0';

  /** Messaging-app deep link base of activation links (`{msgapp_link_url}`). */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  ENGAGEMENT_MSGAPP_LINK_URL = 'https://wa.me';

  /** Timeout of one call to the provider. */
  @EnvNumber()
  @IsInt()
  @Min(100)
  ENGAGEMENT_PROVIDER_TIMEOUT_MS = 10_000;

  /** Messages a campaign sends per second. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(10_000)
  ENGAGEMENT_CAMPAIGN_RATE = 80;

  /** Campaign sends in flight at once. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(256)
  ENGAGEMENT_CAMPAIGN_CONCURRENCY = 16;

  /**
   * A campaign message whose send was started but never confirmed (the process died during the
   * call) is sent again after this long without any status webhook from the provider for it.
   * Must exceed the provider timeout and the provider's webhook retry interval.
   */
  @EnvNumber()
  @IsInt()
  @Min(1_000)
  ENGAGEMENT_CAMPAIGN_UNCONFIRMED_MS = 60_000;

  /** How long a claimed campaign or webhook job stays locked; a dead process's job is taken over after this. */
  @EnvNumber()
  @IsInt()
  @Min(500)
  ENGAGEMENT_WORKER_LOCK_MS = 30_000;

  /** false: API only (no campaign, webhook or quality-review work in this process). */
  @EnvBoolean()
  @IsBoolean()
  ENGAGEMENT_WORKER_ENABLED = true;

  /** Hour (UTC, 0..23) of the daily quality review of flagged outbounds. */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(23)
  ENGAGEMENT_QUALITY_REVIEW_HOUR = 3;

  /**
   * Days a provider webhook's record (table webhook_events: its digest and when it was received and
   * processed) is kept; an hourly durable job deletes older ones (a redelivered webhook is still
   * recognized by the inbox). At least 7: the provider retries a webhook for up to 7 days.
   */
  @EnvNumber()
  @IsInt()
  @Min(7)
  ENGAGEMENT_WEBHOOK_RETENTION_DAYS = 30;

  /**
   * Days of template quality history (table outbound_quality_history) kept by the same hourly job;
   * the newest rating of each outbound before the cutoff stays, so the 7-day quality review decides
   * the same. At least 8.
   */
  @EnvNumber()
  @IsInt()
  @Min(8)
  ENGAGEMENT_QUALITY_HISTORY_RETENTION_DAYS = 90;
  /** Chats an agent works at once when neither it nor its tenant set a capacity. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(1000)
  ENGAGEMENT_AGENT_DEFAULT_CAPACITY = 5;

  /** How long a chat export's signed download link stays valid, in seconds. */
  @EnvNumber()
  @IsInt()
  @Min(10)
  @Max(604_800)
  ENGAGEMENT_EXPORT_LINK_TTL_S = 900;

  /** STUN server URLs of the calling ICE servers (comma-separated; empty: none). */
  @IsString()
  ENGAGEMENT_ICE_STUN_URLS = 'stun:stun.l.google.com:19302';

  /** TURN server URLs (comma-separated, `turn:` or `turns:`; empty: no TURN server is offered). */
  @IsString()
  ENGAGEMENT_ICE_TURN_URLS = '';

  /** The TURN server's shared secret (coturn `static-auth-secret`): signs short-lived TURN credentials. */
  @IsString()
  ENGAGEMENT_TURN_SECRET = '';

  /** Lifetime of a TURN credential, in seconds. */
  @EnvNumber()
  @IsInt()
  @Min(60)
  @Max(86_400)
  ENGAGEMENT_TURN_TTL_S = 3_600;

  /**
   * Media uploads (`POST /v1/msg/media`) one tenant may have in progress at once in this process;
   * one more is refused with 429 `too_many_uploads` before its body is read.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(100)
  ENGAGEMENT_MEDIA_UPLOADS_PER_TENANT = 2;

  /**
   * Where media uploads are spooled (decoded from Base64 as they arrive, then streamed to the
   * provider; each file is deleted when its request ends). Empty: the system's temporary directory.
   */
  @IsString()
  ENGAGEMENT_MEDIA_SPOOL_DIR = '';

  /**
   * The agent inbox's replay window: the push channel's events are kept this long (table
   * inbox_events), so a client that lost its connection resumes with Last-Event-ID without losing
   * or repeating one; an older id gets a `reset` event (reload the lists, then follow).
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(1_440)
  ENGAGEMENT_INBOX_REPLAY_MINUTES = 60;

  /** How often a process with open push channels reads new inbox events (rows this process wrote are read at once). */
  @EnvNumber()
  @IsInt()
  @Min(10)
  @Max(5_000)
  ENGAGEMENT_INBOX_POLL_MS = 100;

  /** A push channel's stream ends after this long; the client reconnects (with Last-Event-ID) and is authorised again. */
  @EnvNumber()
  @IsInt()
  @Min(5)
  @Max(3_600)
  ENGAGEMENT_INBOX_STREAM_MAX_S = 300;

  get credentialsKey(): Buffer {
    if (isBase64Key(this.ENGAGEMENT_CREDENTIALS_KEY)) return Buffer.from(this.ENGAGEMENT_CREDENTIALS_KEY, 'base64');
    return scryptSync(this.ENGAGEMENT_CREDENTIALS_KEY, 'kyc-engagement-credentials', 32);
  }
}

/** Reads the engagement service configuration from the environment (defaults: port 4004, schema engagement). */
export const loadEngagementConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(EngagementConfig, env, {
    SERVICE_NAME: 'engagement',
    PORT: SERVICES.engagement.port,
    DB_SCHEMA: SERVICES.engagement.schema,
  });
