import { loadPassConfig } from './pass.config';

const base = { DATABASE_URL: 'postgres://x', KAFKA_BROKERS: '127.0.0.1:9092', API_KEY_PUBLIC_KEY: 'pem' };

describe('pass configuration', () => {
  it('defaults to port 4006 and the pass schema', () => {
    const config = loadPassConfig(base);
    expect(config.PORT).toBe(4006);
    expect(config.DB_SCHEMA).toBe('pass');
    expect(config.kafkaBrokers).toEqual(['127.0.0.1:9092']);
  });

  it('takes the port from the environment', () => {
    expect(loadPassConfig({ ...base, PORT: '5999' }).PORT).toBe(5999);
  });

  it('fails fast naming every missing variable', () => {
    expect(() => loadPassConfig({})).toThrow(/DATABASE_URL[\s\S]*KAFKA_BROKERS|KAFKA_BROKERS[\s\S]*DATABASE_URL/);
  });
});
