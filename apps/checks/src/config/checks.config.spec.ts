import { randomBytes } from 'node:crypto';

import { loadChecksConfig } from './checks.config';

const base = { DATABASE_URL: 'postgres://x', KAFKA_BROKERS: 'k:9092', API_KEY_PUBLIC_KEY: 'pem' };

describe('ChecksConfig', () => {
  it('requires CHECKS_CREDENTIALS_KEY', () => {
    expect(() => loadChecksConfig(base)).toThrow(/CHECKS_CREDENTIALS_KEY/);
  });

  it('uses 32 base64 bytes as the key, and stretches a passphrase of 16+ characters to 32 bytes', () => {
    const key = randomBytes(32);
    expect(
      loadChecksConfig({ ...base, CHECKS_CREDENTIALS_KEY: key.toString('base64') }).credentialsKey.equals(key),
    ).toBe(true);
    const stretched = loadChecksConfig({ ...base, CHECKS_CREDENTIALS_KEY: 'a long enough passphrase' }).credentialsKey;
    expect(stretched).toHaveLength(32);
    expect(() => loadChecksConfig({ ...base, CHECKS_CREDENTIALS_KEY: 'short' })).toThrow(/CHECKS_CREDENTIALS_KEY/);
  });

  it('reads the engine tuning: inline asks up to CHECKS_INLINE_COLLECT_MAX_MS (0 turns them off), start job concurrency', () => {
    const key = 'a long enough passphrase';
    expect(loadChecksConfig({ ...base, CHECKS_CREDENTIALS_KEY: key })).toMatchObject({
      CHECKS_INLINE_COLLECT_MAX_MS: 2_000,
      CHECKS_START_CONCURRENCY: 16,
    });
    expect(
      loadChecksConfig({
        ...base,
        CHECKS_CREDENTIALS_KEY: key,
        CHECKS_INLINE_COLLECT_MAX_MS: '0',
        CHECKS_START_CONCURRENCY: '4',
      }),
    ).toMatchObject({ CHECKS_INLINE_COLLECT_MAX_MS: 0, CHECKS_START_CONCURRENCY: 4 });
    expect(() =>
      loadChecksConfig({ ...base, CHECKS_CREDENTIALS_KEY: key, CHECKS_INLINE_COLLECT_MAX_MS: '-1' }),
    ).toThrow(/CHECKS_INLINE_COLLECT_MAX_MS/);
    expect(() => loadChecksConfig({ ...base, CHECKS_CREDENTIALS_KEY: key, CHECKS_START_CONCURRENCY: '0' })).toThrow(
      /CHECKS_START_CONCURRENCY/,
    );
  });

  it('reads the sandbox tuning, refusing malformed per-database overrides', () => {
    const config = loadChecksConfig({
      ...base,
      CHECKS_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
      CHECKS_SANDBOX_LATENCY_SCALE: '0.5',
      CHECKS_SANDBOX_DATABASES: '{"sandbox-co-police":{"latency_ms":5000,"failure_rate":0.5}}',
    });
    expect(config.CHECKS_SANDBOX_LATENCY_SCALE).toBe(0.5);
    expect(config.sandboxOverrides).toEqual({ 'sandbox-co-police': { latency_ms: 5000, failure_rate: 0.5 } });
    for (const bad of ['[]', '{"x":{"failure_rate":2}}', '{"x":{"latency":1}}', 'nope']) {
      expect(() =>
        loadChecksConfig({
          ...base,
          CHECKS_CREDENTIALS_KEY: 'a long enough passphrase',
          CHECKS_SANDBOX_DATABASES: bad,
        }),
      ).toThrow(/CHECKS_SANDBOX_DATABASES/);
    }
    expect(() =>
      loadChecksConfig({
        ...base,
        CHECKS_CREDENTIALS_KEY: 'a long enough passphrase',
        CHECKS_SANDBOX_FAILURE_RATE: '1.5',
      }),
    ).toThrow(/CHECKS_SANDBOX_FAILURE_RATE/);
  });
});
