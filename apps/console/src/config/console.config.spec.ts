import { generateSigningKeys } from '@kyc/platform';

import { loadConsoleConfig } from './console.config';

const base = {
  DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/kyc',
  KAFKA_BROKERS: '127.0.0.1:9092',
  API_KEY_PUBLIC_KEY: generateSigningKeys().publicKey,
};

describe('console configuration', () => {
  const { privateKey } = generateSigningKeys();

  it('needs the private key that signs the user call keys', () => {
    expect(() => loadConsoleConfig(base)).toThrow(/API_KEY_PRIVATE_KEY: required/);
  });

  it('listens on 4000 in the console schema and calls the services on their stack ports by default', () => {
    const config = loadConsoleConfig({ ...base, API_KEY_PRIVATE_KEY: privateKey });
    expect(config.PORT).toBe(4000);
    expect(config.DB_SCHEMA).toBe('console');
    expect(config.serviceUrl('checks')).toBe('http://127.0.0.1:4001');
    const set = loadConsoleConfig({
      ...base,
      API_KEY_PRIVATE_KEY: privateKey,
      CONSOLE_CHECKS_URL: 'http://checks:4001/',
    });
    expect(set.serviceUrl('checks')).toBe('http://checks:4001');
  });

  it('makes the cookie Secure everywhere but plain HTTP on the loopback', () => {
    const at = (PUBLIC_URL?: string) =>
      loadConsoleConfig({ ...base, API_KEY_PRIVATE_KEY: privateKey, ...(PUBLIC_URL ? { PUBLIC_URL } : {}) })
        .secureCookies;
    expect(at()).toBe(false);
    expect(at('http://localhost:4000')).toBe(false);
    expect(at('https://console.example.com')).toBe(true);
    expect(at('http://console.internal:4000')).toBe(true);
  });

  it('refuses to start in production without the shared secret', () => {
    expect(() => loadConsoleConfig({ ...base, API_KEY_PRIVATE_KEY: privateKey, NODE_ENV: 'production' })).toThrow(
      /CONSOLE_SECRET_KEY/,
    );
  });
});
