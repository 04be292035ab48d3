import { loadAccountConfig } from './account.config';

const required = {
  DATABASE_URL: 'postgres://x',
  KAFKA_BROKERS: 'a:1,b:2',
  API_KEY_PUBLIC_KEY: 'pem',
  ACCOUNT_SECRETS_KEY: 'ab'.repeat(32),
};

describe('account configuration', () => {
  it('defaults to port 4002 and the account schema, with the service name as consumer group', () => {
    const config = loadAccountConfig(required);
    expect(config.PORT).toBe(4002);
    expect(config.DB_SCHEMA).toBe('account');
    expect(config.kafkaBrokers).toEqual(['a:1', 'b:2']);
    expect(config.KAFKA_CONSUMER_GROUP).toBeUndefined();
  });

  it('needs a secrets key, and takes the rules engine settings', () => {
    expect(() => loadAccountConfig({ ...required, ACCOUNT_SECRETS_KEY: undefined })).toThrow(/ACCOUNT_SECRETS_KEY/);
    expect(() => loadAccountConfig({ ...required, ACCOUNT_SECRETS_KEY: 'short' })).toThrow(
      /ACCOUNT_SECRETS_KEY must be 64 hex/,
    );
    expect(() => loadAccountConfig({ ...required, ACCOUNT_SMTP_URL: 'http://x' })).toThrow(/ACCOUNT_SMTP_URL/);
    const config = loadAccountConfig({
      ...required,
      ACCOUNT_SMTP_URL: 'smtp://127.0.0.1:2525',
      ACCOUNT_RULES_MAX_DEPTH: '2',
    });
    expect(config).toMatchObject({
      ACCOUNT_SMTP_URL: 'smtp://127.0.0.1:2525',
      ACCOUNT_RULES_MAX_DEPTH: 2,
      ACCOUNT_MAIL_FROM: expect.stringContaining('@'),
    });
    expect(loadAccountConfig(required).ACCOUNT_RULES_MAX_DEPTH).toBe(3);
  });
});
