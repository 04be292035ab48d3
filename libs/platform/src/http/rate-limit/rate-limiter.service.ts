import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { PlatformConfig } from '../../config/platform.config';
import { parseTenantRateLimits, TenantRateLimit } from './rate-limit.config';
import { BucketAnswer, BucketLimit, TokenBucket } from './token-bucket';

/**
 * One statement syncs every bucket a process holds: it adds the refill since
 * the row's last update (at the database's clock, the one every replica shares), takes off what
 * this process let through (`used`) and answers the tokens left. Rows are locked in key order, so
 * two replicas syncing overlapping buckets never deadlock. The table is UNLOGGED: after a crash
 * of PostgreSQL the buckets start full again.
 */
const SYNC_SQL = `
  INSERT INTO rate_limit_buckets AS b (key, tokens, per_second, burst, updated_at)
  SELECT t.key, GREATEST(0, t.burst - t.used), t.per_second, t.burst, clock_timestamp()
    FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[]) AS t(key, used, per_second, burst)
   ORDER BY t.key
  ON CONFLICT (key) DO UPDATE SET
    tokens = GREATEST(0, LEAST(EXCLUDED.burst,
               b.tokens + EXTRACT(EPOCH FROM EXCLUDED.updated_at - b.updated_at) * EXCLUDED.per_second)
             - (EXCLUDED.burst - EXCLUDED.tokens)),
    per_second = EXCLUDED.per_second, burst = EXCLUDED.burst, updated_at = EXCLUDED.updated_at
  RETURNING key, tokens`;

const scopeOf = (bucket: TokenBucket): RateLimitScope =>
  bucket.key.startsWith('tenant:') ? 'tenant' : bucket.key.startsWith('client:') ? 'client' : 'key';

/**
 * A process keeps syncing the buckets its callers used in this time, so it follows what the other
 * replicas take even while it takes nothing; then it forgets them.
 */
const FORGET_AFTER_MS = 60_000;

/** Rows of buckets nobody used for an hour are deleted (a new one starts full), at most this often. */
const PURGE_EVERY_MS = 10 * 60_000;
const PURGE_SQL = `DELETE FROM rate_limit_buckets WHERE updated_at < now() - interval '1 hour'`;

export type RateLimitScope = 'tenant' | 'key' | 'client';

/** The answer for a caller: every bucket allowed the request, or the first that refused it (`scope`). */
export type RateLimitAnswer = BucketAnswer & { scope: RateLimitScope };

/**
 * Per-tenant, per-API-key and per-client-address request limits of a service, as token buckets
 * shared by its replicas in `<schema>.rate_limit_buckets`. A request costs no database round trip: each
 * process decides from its own view of the bucket (the shared tokens at the last sync, refilled
 * since, less what it let through) and syncs every bucket used in the last minute every
 * RATE_LIMIT_SYNC_MS, in one statement. Replicas learn of each other's requests within a sync:
 * together they can let through what each lets through in that time more than the limit, and a
 * replica that has not seen a bucket in the last minute trusts it full until its first sync.
 */
@Injectable()
export class RateLimiterService implements OnApplicationShutdown {
  private readonly logger = new Logger('rate-limit');
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly tenantLimits: Record<string, TenantRateLimit>;
  private timer?: NodeJS.Timeout;
  private syncing?: Promise<void>;
  private lastPurge = Date.now();
  private stopped = false;

  constructor(
    private readonly config: PlatformConfig,
    private readonly dataSource: DataSource,
  ) {
    this.tenantLimits = parseTenantRateLimits(config.RATE_LIMIT_TENANTS) ?? {};
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sync(), this.config.RATE_LIMIT_SYNC_MS);
    this.timer.unref();
  }

  private readonly limits = new Map<string, { tenant: BucketLimit; key: BucketLimit }>();

  /** The limits of a tenant's bucket and of each of its keys' buckets (the operator's override or the defaults). */
  limitsOf(tenantId: string): { tenant: BucketLimit; key: BucketLimit } {
    let limits = this.limits.get(tenantId);
    if (!limits) {
      limits = this.computeLimits(tenantId);
      if (this.limits.size >= 100_000) this.limits.clear();
      this.limits.set(tenantId, limits);
    }
    return limits;
  }

  private computeLimits(tenantId: string): { tenant: BucketLimit; key: BucketLimit } {
    const c = this.config;
    const o = this.tenantLimits[tenantId] ?? {};
    return {
      tenant: {
        perSecond: o.per_second ?? c.RATE_LIMIT_TENANT_PER_SECOND,
        burst: o.burst ?? c.RATE_LIMIT_TENANT_BURST ?? 2 * (o.per_second ?? c.RATE_LIMIT_TENANT_PER_SECOND),
      },
      key: {
        perSecond: o.key_per_second ?? c.RATE_LIMIT_KEY_PER_SECOND,
        burst: o.key_burst ?? c.RATE_LIMIT_KEY_BURST ?? 2 * (o.key_per_second ?? c.RATE_LIMIT_KEY_PER_SECOND),
      },
    };
  }

  /**
   * Takes a token from the tenant's bucket and from the key's; a request refused by one takes
   * nothing from the other. Undefined when neither bucket is on (a rate of 0).
   */
  take(tenantId: string, keyId: string, nowMs = Date.now()): RateLimitAnswer | undefined {
    const limits = this.limitsOf(tenantId);
    const buckets: TokenBucket[] = [];
    if (limits.tenant.perSecond > 0) buckets.push(this.bucket(`tenant:${tenantId}`, limits.tenant, nowMs));
    if (limits.key.perSecond > 0) buckets.push(this.bucket(`key:${tenantId}:${keyId}`, limits.key, nowMs));
    if (!buckets.length) return undefined;
    const taken: TokenBucket[] = [];
    for (const bucket of buckets) {
      if (bucket.take(nowMs)) {
        taken.push(bucket);
        continue;
      }
      for (const t of taken) t.refund();
      return { ...bucket.answer(false, nowMs), scope: scopeOf(bucket) };
    }
    // The headers describe the bucket closest to refusing.
    let closest = buckets[0];
    if (buckets.length > 1 && buckets[1].available(nowMs) < closest.available(nowMs)) closest = buckets[1];
    return { ...closest.answer(true, nowMs), scope: scopeOf(closest) };
  }

  /**
   * Takes a token from a client address's bucket (routes without an API key: pass pages, identity's
   * page, upload and media links). Undefined when the limit is off (a rate of 0).
   */
  takeClient(address: string, nowMs = Date.now()): RateLimitAnswer | undefined {
    const perSecond = this.config.RATE_LIMIT_CLIENT_PER_SECOND;
    if (!(perSecond > 0)) return undefined;
    const limit = { perSecond, burst: this.config.RATE_LIMIT_CLIENT_BURST ?? 10 * perSecond };
    const bucket = this.bucket(`client:${address}`, limit, nowMs);
    return { ...bucket.answer(bucket.take(nowMs), nowMs), scope: 'client' };
  }

  private bucket(key: string, limit: BucketLimit, nowMs: number): TokenBucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(key, limit, nowMs);
      this.buckets.set(key, bucket);
    } else if (bucket.limit.perSecond !== limit.perSecond || bucket.limit.burst !== limit.burst) bucket.limit = limit;
    return bucket;
  }

  /** Sends what this process let through since the last sync and learns what every replica left. */
  sync(): Promise<void> {
    this.syncing ??= this.runSync().finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  private async runSync(): Promise<void> {
    const now = Date.now();
    const batch: TokenBucket[] = [];
    for (const [key, bucket] of this.buckets) {
      if (bucket.idle(now, FORGET_AFTER_MS)) this.buckets.delete(key);
      else batch.push(bucket);
    }
    if (!batch.length) return;
    const used = batch.map((b) => {
      const sent = b.pending;
      b.pending = 0;
      return sent;
    });
    try {
      const rows: { key: string; tokens: number }[] = await this.dataSource.query(SYNC_SQL, [
        batch.map((b) => b.key),
        used,
        batch.map((b) => b.limit.perSecond),
        batch.map((b) => b.limit.burst),
      ]);
      const tokens = new Map(rows.map((r) => [r.key, Number(r.tokens)]));
      const at = Date.now();
      for (const bucket of batch) {
        const shared = tokens.get(bucket.key);
        if (shared !== undefined) bucket.synced(shared, at);
      }
      if (at - this.lastPurge > PURGE_EVERY_MS) {
        this.lastPurge = at;
        await this.dataSource.query(PURGE_SQL);
      }
    } catch (err: unknown) {
      // Not sent: counted again at the next sync; meanwhile each process limits on its own view.
      batch.forEach((b, i) => (b.pending += used[i]));
      if (!this.stopped) this.logger.warn({ err, msg: 'rate limit sync failed' });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.syncing;
    this.stopped = true;
  }
}
