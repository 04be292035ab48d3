import { loadAccountConfig } from './account.config';

describe('account configuration', () => {
  it('defaults to port 4002 and the account schema, with the service name as consumer group', () => {
    const config = loadAccountConfig({ DATABASE_URL: 'postgres://x', KAFKA_BROKERS: 'a:1,b:2', API_KEY_PUBLIC_KEY: 'pem' });
    expect(config.PORT).toBe(4002);
    expect(config.DB_SCHEMA).toBe('account');
    expect(config.kafkaBrokers).toEqual(['a:1', 'b:2']);
    expect(config.KAFKA_CONSUMER_GROUP).toBeUndefined();
  });
});
