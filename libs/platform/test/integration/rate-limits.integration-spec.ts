import { closeDb, createTenant, db, startService, TestTenant, uniqueTenantId } from '@kyc/testing';

type App = Awaited<ReturnType<typeof startService>>;

const whoami = (url: string, key: string) => fetch(`${url}/v1/auth/whoami`, { headers: { 'Service-API-Key': key } });
const statuses = async (n: number, call: () => Promise<Response>) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call()).status);
  return out;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('per-tenant and per-key rate limits (token buckets shared by replicas)', () => {
  // Two replicas of one service on the same schema; the limited tenants get operator overrides.
  const limitedId = uniqueTenantId('rl-limited');
  const keyLimitedId = uniqueTenantId('rl-keys');
  const env = {
    RATE_LIMIT_SYNC_MS: '50',
    // A bucket of 10 that refills one token per 20 s: nothing comes back during the test.
    RATE_LIMIT_TENANTS: JSON.stringify({
      [limitedId]: { per_second: 0.05, burst: 10 },
      [keyLimitedId]: { key_per_second: 0.05, key_burst: 3 },
    }),
  };
  let one: App;
  let two: App;
  let limited: TestTenant;
  let keyLimited: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    [one, two] = await Promise.all([startService('account', env), startService('account', env)]);
    // Waiting for a key to be accepted takes a token from its buckets on each replica named.
    [limited, keyLimited, other] = await Promise.all([
      createTenant(one.url, [one.url, two.url], limitedId),
      createTenant(one.url, [one.url], keyLimitedId),
      createTenant(one.url, [one.url, two.url]),
    ]);
  });

  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await closeDb();
  });

  it('refuses a tenant past its limit with 429, Retry-After and RateLimit-* headers, on every replica', async () => {
    // Each replica let one request through (createTenant's wait): 8 tokens are left of the shared 10.
    await sleep(300);
    const first = await statuses(11, () => whoami(one.url, limited.apiKey));
    expect(first.slice(0, 8)).toEqual(Array(8).fill(200));
    expect(first.slice(8)).toEqual([429, 429, 429]);

    const refused = await whoami(one.url, limited.apiKey);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      code: 429,
      status: 'Too Many Requests',
      message: expect.stringContaining('for this tenant'),
      error_code: 'too_many_requests',
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-limit')).toBe('10');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('ratelimit-reset'))).toBeGreaterThan(0);

    // By its own count replica two has 9 tokens left; it learned of replica one's requests.
    await sleep(300);
    expect((await whoami(two.url, limited.apiKey)).status).toBe(429);
    // The other key of the same tenant is refused too: the tenant's bucket is empty.
    expect((await whoami(two.url, limited.apiKeyV0)).status).toBe(429);

    const row = await db().query(`SELECT tokens, burst FROM account.rate_limit_buckets WHERE key = $1`, [
      `tenant:${limitedId}`,
    ]);
    expect(row.rows[0]).toMatchObject({ burst: 10 });
    expect(row.rows[0].tokens).toBeLessThan(1);
  });

  it('keeps another tenant at full speed meanwhile', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => whoami(i % 2 ? one.url : two.url, other.apiKey)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(60).fill(200));
    // The default key bucket (100 per second, 200 at once) is the closest to refusing.
    expect(answers[0].headers.get('ratelimit-limit')).toBe('200');
    expect(Number(answers[59].headers.get('ratelimit-remaining'))).toBeGreaterThan(100);
    // And the limited tenant is still refused.
    expect((await whoami(one.url, limited.apiKey)).status).toBe(429);
  });

  it('limits each API key of a tenant on its own', async () => {
    // createTenant's wait took one of the key's 3 tokens.
    const first = await statuses(3, () => whoami(one.url, keyLimited.apiKey));
    expect(first).toEqual([200, 200, 429]);
    const refused = await whoami(one.url, keyLimited.apiKey);
    expect((await refused.json()).message).toContain('for this API key');
    expect(await statuses(3, () => whoami(one.url, keyLimited.apiKeyV0))).toEqual([200, 200, 200]);
  });

  it('does not limit public routes', async () => {
    expect(await statuses(15, () => fetch(`${one.url}/health`))).not.toContain(429);
  });
});
