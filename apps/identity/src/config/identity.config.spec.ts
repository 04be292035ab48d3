import { loadIdentityConfig } from './identity.config';

const base = { DATABASE_URL: 'postgres://x', KAFKA_BROKERS: '127.0.0.1:9092', API_KEY_PUBLIC_KEY: 'pem' };

describe('identity configuration', () => {
  it('needs the private key that signs API keys', () => {
    expect(() => loadIdentityConfig(base)).toThrow(/API_KEY_PRIVATE_KEY/);
    expect(loadIdentityConfig({ ...base, API_KEY_PRIVATE_KEY: 'pem' }).PORT).toBe(4003);
  });
});
