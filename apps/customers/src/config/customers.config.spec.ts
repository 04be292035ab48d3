import { loadCustomersConfig } from './customers.config';

const base = { DATABASE_URL: 'postgres://x', KAFKA_BROKERS: '127.0.0.1:9092', API_KEY_PUBLIC_KEY: 'pem' };

describe('customers configuration', () => {
  it('defaults to port 4005 and the customers schema', () => {
    const config = loadCustomersConfig(base);
    expect(config.PORT).toBe(4005);
    expect(config.DB_SCHEMA).toBe('customers');
    expect(config.kafkaBrokers).toEqual(['127.0.0.1:9092']);
  });

  it('takes the port from the environment', () => {
    expect(loadCustomersConfig({ ...base, PORT: '5999' }).PORT).toBe(5999);
  });

  it('fails fast naming every missing variable', () => {
    expect(() => loadCustomersConfig({})).toThrow(/DATABASE_URL[\s\S]*KAFKA_BROKERS|KAFKA_BROKERS[\s\S]*DATABASE_URL/);
  });
});
