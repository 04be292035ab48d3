/** A bucket's size (burst) and refill speed (tokens per second); a rate of 0 turns the bucket off. */
export interface BucketLimit {
  perSecond: number;
  burst: number;
}

/** What a request learns from a bucket: the IETF RateLimit-* header values and, when refused, Retry-After. */
export interface BucketAnswer {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again (RateLimit-Reset). */
  resetSeconds: number;
  /** Seconds until one token is back (Retry-After of a refused request). */
  retryAfterSeconds: number;
}

/**
 * One process's view of a token bucket shared across replicas: the tokens the shared row had at
 * the last sync, refilled locally since, less the requests this process let through since. The
 * requests taken since the last sync (`pending`) are sent to the shared row at the next sync
 * (RateLimiterService), which answers with the tokens every replica left.
 */
export class TokenBucket {
  /** Requests let through since the last sync was sent. */
  pending = 0;
  /** When a request last asked this bucket (the process forgets buckets nobody asked for a while). */
  lastUsedMs: number;
  private tokens: number;
  private at: number;

  constructor(
    readonly key: string,
    public limit: BucketLimit,
    nowMs: number,
  ) {
    this.tokens = limit.burst;
    this.at = nowMs;
    this.lastUsedMs = nowMs;
  }

  /** Tokens left now (refilled since the last change, at most the burst). */
  available(nowMs: number): number {
    return Math.min(this.limit.burst, this.tokens + ((nowMs - this.at) / 1000) * this.limit.perSecond);
  }

  /** Takes one token when there is one. */
  take(nowMs: number): boolean {
    this.lastUsedMs = nowMs;
    const tokens = this.available(nowMs);
    this.tokens = tokens;
    this.at = nowMs;
    if (tokens < 1) return false;
    this.tokens = tokens - 1;
    this.pending += 1;
    return true;
  }

  /** Gives back a token taken for a request another bucket refused. */
  refund(): void {
    this.tokens += 1;
    this.pending -= 1;
  }

  answer(allowed: boolean, nowMs: number): BucketAnswer {
    const tokens = this.available(nowMs);
    const { burst, perSecond } = this.limit;
    return {
      allowed,
      limit: burst,
      remaining: Math.max(0, Math.floor(tokens)),
      resetSeconds: Math.max(0, Math.ceil((burst - tokens) / perSecond)),
      retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perSecond)),
    };
  }

  /**
   * The shared row's tokens after a sync (it already counts what this process sent); requests
   * let through while the sync was in flight are still pending and are taken off.
   */
  synced(sharedTokens: number, nowMs: number): void {
    this.tokens = Math.min(this.limit.burst, sharedTokens) - this.pending;
    this.at = nowMs;
  }

  /** Nothing to send and no request for `idleMs`: the process can forget it (a new one starts full). */
  idle(nowMs: number, idleMs: number): boolean {
    return this.pending === 0 && nowMs - this.lastUsedMs > idleMs;
  }
}
