import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { loadConfig, PlatformConfig } from '../config/platform.config';
import { kafkaClientOptions } from './kafka';

const base = {
  SERVICE_NAME: 'checks',
  PORT: '4001',
  DATABASE_URL: 'postgres://x',
  DB_SCHEMA: 'checks',
  KAFKA_BROKERS: 'b1:9096, b2:9096',
  API_KEY_PUBLIC_KEY: 'pem',
};

describe('Kafka connection settings', () => {
  it('connects in plaintext without SASL by default, with client ids named after the service', () => {
    const options = kafkaClientOptions(loadConfig(PlatformConfig, base).kafkaConnection, 'consumer');
    expect(options).toMatchObject({ clientId: 'checks-consumer', brokers: ['b1:9096', 'b2:9096'] });
    expect(options.ssl).toBeUndefined();
    expect(options.sasl).toBeUndefined();
  });

  it('passes TLS with a private CA and SCRAM credentials to every client', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kafka-ca-'));
    writeFileSync(path.join(dir, 'ca.pem'), 'CA PEM');
    const config = loadConfig(PlatformConfig, {
      ...base,
      KAFKA_CLIENT_ID: 'checks-eu',
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: path.join(dir, 'ca.pem'),
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'checks',
      KAFKA_SASL_PASSWORD: 'secret',
    });
    expect(kafkaClientOptions(config.kafkaConnection, 'producer')).toMatchObject({
      clientId: 'checks-eu-producer',
      ssl: { ca: ['CA PEM'] },
      sasl: { mechanism: 'scram-sha-512', username: 'checks', password: 'secret' },
    });
    expect(loadConfig(PlatformConfig, { ...base, KAFKA_SSL: 'yes' }).kafkaConnection.ssl).toBe(true);
  });

  it('refuses an unknown mechanism and a mechanism without credentials at boot', () => {
    expect(() => loadConfig(PlatformConfig, { ...base, KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(
      /KAFKA_SASL_MECHANISM/,
    );
    expect(() => loadConfig(PlatformConfig, { ...base, KAFKA_SASL_MECHANISM: 'plain' })).toThrow(
      /KAFKA_SASL_USERNAME[\s\S]*KAFKA_SASL_PASSWORD/,
    );
  });
});
