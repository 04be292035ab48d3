import { loadValidationsConfig } from './validations.config';

const base = { DATABASE_URL: 'postgres://x', KAFKA_BROKERS: '127.0.0.1:9092', API_KEY_PUBLIC_KEY: 'pem' };

describe('validations configuration', () => {
  it('defaults to port 4007 and the validations schema', () => {
    const config = loadValidationsConfig(base);
    expect(config.PORT).toBe(4007);
    expect(config.DB_SCHEMA).toBe('validations');
    expect(config.kafkaBrokers).toEqual(['127.0.0.1:9092']);
  });

  it('takes the port from the environment', () => {
    expect(loadValidationsConfig({ ...base, PORT: '5999' }).PORT).toBe(5999);
  });

  it('fails fast naming every missing variable', () => {
    expect(() => loadValidationsConfig({})).toThrow(
      /DATABASE_URL[\s\S]*KAFKA_BROKERS|KAFKA_BROKERS[\s\S]*DATABASE_URL/,
    );
  });
});
