import { loadEngagementConfig } from './engagement.config';

const base = {
  DATABASE_URL: 'postgres://x',
  KAFKA_BROKERS: '127.0.0.1:9092',
  API_KEY_PUBLIC_KEY: 'pem',
  ENGAGEMENT_CREDENTIALS_KEY: 'a passphrase of 16+ chars',
};

describe('engagement configuration', () => {
  it('defaults to port 4004 and the engagement schema', () => {
    const config = loadEngagementConfig(base);
    expect(config.PORT).toBe(4004);
    expect(config.DB_SCHEMA).toBe('engagement');
    expect(config.kafkaBrokers).toEqual(['127.0.0.1:9092']);
  });

  it('takes the port from the environment', () => {
    expect(loadEngagementConfig({ ...base, PORT: '5999' }).PORT).toBe(5999);
  });

  it('fails fast naming every missing variable', () => {
    expect(() => loadEngagementConfig({})).toThrow(/DATABASE_URL[\s\S]*KAFKA_BROKERS|KAFKA_BROKERS[\s\S]*DATABASE_URL/);
  });
});
