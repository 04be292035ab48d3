import { PlatformConfig } from '../../config/platform.config';
import { clientBucketOf } from './client-address';
import { parseTenantRateLimits } from './rate-limit.config';
import { RateLimiterService } from './rate-limiter.service';
import { TokenBucket } from './token-bucket';

const config = (over: Partial<PlatformConfig> = {}) =>
  Object.assign(new PlatformConfig(), {
    RATE_LIMIT_TENANT_PER_SECOND: 10,
    RATE_LIMIT_KEY_PER_SECOND: 5,
    RATE_LIMIT_TENANTS: '{"small": {"per_second": 1, "burst": 2}}',
    ...over,
  });
const limiter = (over: Partial<PlatformConfig> = {}) => new RateLimiterService(config(over), {} as never);

describe('TokenBucket', () => {
  it('lets the burst through at once, then one request per 1/rate seconds', () => {
    const bucket = new TokenBucket('k', { perSecond: 2, burst: 3 }, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([true, true, true, false]);
    expect(bucket.answer(false, 0)).toMatchObject({ remaining: 0, retryAfterSeconds: 1, resetSeconds: 2, limit: 3 });
    expect(bucket.take(400)).toBe(false);
    expect(bucket.take(500)).toBe(true);
    expect(bucket.pending).toBe(4);
  });

  it('after a sync, counts the shared tokens less what it let through while the sync was in flight', () => {
    const bucket = new TokenBucket('k', { perSecond: 1, burst: 10 }, 0);
    bucket.take(0);
    bucket.pending = 0; // sent
    bucket.take(0); // while in flight
    bucket.synced(2, 0); // other replicas used most of the bucket
    expect(bucket.answer(true, 0).remaining).toBe(1);
  });
});

describe('RateLimiterService.take', () => {
  it('applies an operator override to its tenant only', () => {
    const l = limiter();
    expect(l.limitsOf('small').tenant).toEqual({ perSecond: 1, burst: 2 });
    expect(l.limitsOf('other').tenant).toEqual({ perSecond: 10, burst: 20 });
    expect(l.limitsOf('other').key).toEqual({ perSecond: 5, burst: 10 });
    const answers = [1, 2, 3].map(() => l.take('small', 'k1', 0));
    expect(answers.map((a) => a?.allowed)).toEqual([true, true, false]);
    expect(answers[2]).toMatchObject({ scope: 'tenant', retryAfterSeconds: 1 });
    expect(l.take('other', 'k1', 0)?.allowed).toBe(true);
  });

  it('limits each key within its tenant, and a refusal by one bucket takes nothing from the other', () => {
    const l = limiter();
    for (let i = 0; i < 10; i++) expect(l.take('t', 'k1', 0)?.allowed).toBe(true);
    expect(l.take('t', 'k1', 0)).toMatchObject({ allowed: false, scope: 'key' });
    // The tenant bucket gave back the refused request's token: 10 of 20 left for the tenant's other keys.
    for (let i = 0; i < 10; i++) expect(l.take('t', 'k2', 0)?.allowed).toBe(true);
    expect(l.take('t', 'k3', 0)).toMatchObject({ allowed: false, scope: 'tenant' });
  });

  it('is off with rates of 0', () => {
    expect(limiter({ RATE_LIMIT_TENANT_PER_SECOND: 0, RATE_LIMIT_KEY_PER_SECOND: 0 }).take('t', 'k')).toBeUndefined();
  });
});

describe('parseTenantRateLimits', () => {
  it('refuses anything but an object of tenants with known non-negative numbers', () => {
    expect(parseTenantRateLimits('{"t": {"per_second": 5}}')).toEqual({ t: { per_second: 5 } });
    for (const bad of ['[]', '{"t": 5}', '{"t": {"rate": 5}}', '{"t": {"burst": -1}}', 'nope'])
      expect(parseTenantRateLimits(bad)).toBeUndefined();
  });
});

describe('RateLimiterService.takeClient', () => {
  it('limits each client address on its own bucket, ten times the rate by default', () => {
    const l = limiter({ RATE_LIMIT_CLIENT_PER_SECOND: 1 });
    const answers = Array.from({ length: 11 }, () => l.takeClient('203.0.113.7', 0));
    expect(answers.map((a) => a?.allowed)).toEqual([...Array(10).fill(true), false]);
    expect(answers[10]).toMatchObject({ scope: 'client', limit: 10, retryAfterSeconds: 1 });
    expect(l.takeClient('203.0.113.8', 0)?.allowed).toBe(true);
    expect(limiter({ RATE_LIMIT_CLIENT_PER_SECOND: 0 }).takeClient('203.0.113.7')).toBeUndefined();
  });
});

describe('clientBucketOf', () => {
  it('counts IPv4 addresses alone (also IPv4-mapped) and IPv6 addresses by their /64', () => {
    expect(clientBucketOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucketOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucketOf('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(clientBucketOf('2001:0db8:0000:0001:ffff:0:0:2')).toBe('2001:db8:0:1::/64');
    expect(clientBucketOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientBucketOf('::1')).toBe('0:0:0:0::/64');
  });
});
