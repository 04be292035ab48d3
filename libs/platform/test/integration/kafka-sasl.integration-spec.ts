import { KafkaBroker, startKafkaBroker, startService } from '@kyc/testing';
import { Kafka } from 'kafkajs';

import { kafkaClientOptions, KafkaConnection } from '../../src/events/kafka';

/** The platform's client options; without retries by default (a refusal is final here). */
const admin = (connection: KafkaConnection, retries = 0) =>
  new Kafka({ ...kafkaClientOptions(connection, 'spec'), retry: { retries }, connectionTimeout: 3_000 }).admin();

describe('Kafka over SASL/SCRAM (a broker of its own with a SCRAM-SHA-256 listener)', () => {
  let broker: KafkaBroker;
  const user = { name: 'svc-account', password: 'scram-secret-1' };
  let withCredentials: KafkaConnection;

  beforeAll(async () => {
    broker = await startKafkaBroker({ sasl: { mechanism: 'SCRAM-SHA-256', users: [user] } });
    withCredentials = {
      clientId: 'spec',
      brokers: broker.saslBrokers,
      sasl: { mechanism: 'scram-sha-256', username: user.name, password: user.password },
    };
  }, 180_000);

  afterAll(async () => {
    await broker?.stop();
  });

  it('connects a service with its credentials: it starts, consumes and names its clients after KAFKA_CLIENT_ID', async () => {
    const account = await startService('account', {
      KAFKA_BROKERS: broker.saslBrokers.join(','),
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      KAFKA_SASL_USERNAME: user.name,
      KAFKA_SASL_PASSWORD: user.password,
      KAFKA_CLIENT_ID: 'account-eu-1',
      KAFKA_CONSUMER_GROUP: 'account-sasl-spec',
    });
    try {
      expect((await fetch(`${account.url}/health`)).status).toBe(200);
      const a = admin(withCredentials, 5);
      await a.connect();
      try {
        const { groups } = await a.describeGroups(['account-sasl-spec']);
        expect(groups[0].members.map((m) => m.clientId)).toContain('account-eu-1-consumer');
      } finally {
        await a.disconnect();
      }
    } finally {
      await account.close();
    }
  });

  it('is refused with a wrong password', async () => {
    const a = admin({
      clientId: 'spec',
      brokers: broker.saslBrokers,
      sasl: { mechanism: 'scram-sha-256', username: user.name, password: 'wrong' },
    });
    await expect(a.connect()).rejects.toThrow(/SASL SCRAM SHA256 authentication failed|Authentication failed/i);
  });

  it('is refused without credentials', async () => {
    // The listener answers ApiVersions before authentication; anything else closes the connection.
    const a = admin({ clientId: 'spec', brokers: broker.saslBrokers });
    await expect(a.connect().then(() => a.listTopics())).rejects.toThrow();
    await a.disconnect().catch(() => undefined);
  });

  it('reaches the listener with the credentials (the same client the services use)', async () => {
    const a = admin(withCredentials);
    await a.connect();
    try {
      expect(await a.listTopics()).toContain('checks.check.finished');
    } finally {
      await a.disconnect();
    }
  });
});
