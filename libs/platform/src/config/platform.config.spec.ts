import { loadConfig, PlatformConfig } from './platform.config';

const base = {
  SERVICE_NAME: 'spec',
  PORT: '4000',
  DATABASE_URL: 'postgres://x',
  DB_SCHEMA: 'spec',
  KAFKA_BROKERS: 'b1:9096',
  API_KEY_PUBLIC_KEY: 'pem',
};

class WithSharedSecret extends PlatformConfig {
  static readonly SHARED_SECRETS = ['SPEC_SECRET'];
  SPEC_SECRET?: string;
}

describe('platform configuration', () => {
  it("accepts KAFKA_SASL_MECHANISM in Kafka's own spelling (SCRAM-SHA-512) as well as lowercase", () => {
    const sasl = { KAFKA_SASL_USERNAME: 'svc', KAFKA_SASL_PASSWORD: 'pw' };
    for (const mechanism of ['SCRAM-SHA-512', 'scram-sha-512', ' Scram-Sha-512 '])
      expect(
        loadConfig(PlatformConfig, { ...base, ...sasl, KAFKA_SASL_MECHANISM: mechanism }).kafkaConnection.sasl,
      ).toEqual({
        mechanism: 'scram-sha-512',
        username: 'svc',
        password: 'pw',
      });
    expect(loadConfig(PlatformConfig, { ...base, ...sasl, KAFKA_SASL_MECHANISM: 'PLAIN' }).KAFKA_SASL_MECHANISM).toBe(
      'plain',
    );
    expect(() => loadConfig(PlatformConfig, { ...base, ...sasl, KAFKA_SASL_MECHANISM: 'GSSAPI' })).toThrow(
      /KAFKA_SASL_MECHANISM/,
    );
  });

  it('refuses to start without a shared secret in production or with more than one replica, naming it', () => {
    expect(loadConfig(WithSharedSecret, base).SPEC_SECRET).toBeUndefined();
    expect(() => loadConfig(WithSharedSecret, { ...base, NODE_ENV: 'production' })).toThrow(
      /SPEC_SECRET: required with NODE_ENV=production/,
    );
    expect(() => loadConfig(WithSharedSecret, { ...base, SERVICE_REPLICAS: '3' })).toThrow(
      /SPEC_SECRET: required with SERVICE_REPLICAS=3/,
    );
    expect(loadConfig(WithSharedSecret, { ...base, SERVICE_REPLICAS: '3', SPEC_SECRET: 'x' }).SPEC_SECRET).toBe('x');
  });
});
