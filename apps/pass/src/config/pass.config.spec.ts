import { loadPassConfig } from './pass.config';

const base = {
  DATABASE_URL: 'postgres://x',
  KAFKA_BROKERS: '127.0.0.1:9092',
  API_KEY_PUBLIC_KEY: 'pem',
  PASS_SECRETS_KEY: 'a passphrase of enough length',
};

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

  it('needs a secrets key of at least 16 characters', () => {
    expect(() => loadPassConfig({ ...base, PASS_SECRETS_KEY: 'short' })).toThrow(/PASS_SECRETS_KEY/);
  });

  it('uses the public URL as issuer unless PASS_ISSUER is set', () => {
    expect(loadPassConfig({ ...base, PUBLIC_URL: 'http://pass.local/' }).issuer).toBe('http://pass.local');
    expect(loadPassConfig({ ...base, PASS_ISSUER: 'https://id.example' }).issuer).toBe('https://id.example');
  });

  it('fails fast naming every missing variable', () => {
    expect(() => loadPassConfig({})).toThrow(/DATABASE_URL[\s\S]*KAFKA_BROKERS|KAFKA_BROKERS[\s\S]*DATABASE_URL/);
  });
});
