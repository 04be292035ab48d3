import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { TOPIC_SPECS } from '@kyc/contracts';
import {
  ApiClient,
  createTenant,
  db,
  eventually,
  harness,
  KafkaBroker,
  repoRoot,
  RunningService,
  startKafkaBroker,
  startService,
} from '@kyc/testing';
import { ConfigResourceTypes, Kafka } from 'kafkajs';
import { parseAllDocuments } from 'yaml';

import { kafkaClientOptions, KafkaConnection } from '../../src/events/kafka';

const run = promisify(execFile);

/** The platform's client options; without retries by default (a refusal is final here). */
const admin = (connection: KafkaConnection, retries = 0) =>
  new Kafka({ ...kafkaClientOptions(connection, 'spec'), retry: { retries }, connectionTimeout: 5_000 }).admin();

/** The kafka-topics Job of deploy/base: its container's script and environment. */
function topicsJob(): { script: string; env: Record<string, string> } {
  const job = parseAllDocuments(
    readFileSync(path.join(repoRoot, 'deploy/base/kafka-topics-job.yaml'), 'utf8'),
  )[0].toJS();
  const container = job.spec.template.spec.containers[0];
  expect(container.command.slice(0, 2)).toEqual(['/bin/sh', '-ec']);
  const env = Object.fromEntries(
    (container.env as { name: string; value?: string }[])
      .filter((e) => e.value !== undefined)
      .map((e) => [e.name, e.value!]),
  );
  return { script: container.command[2], env };
}

/**
 * A managed Kafka as MSK or Confluent Cloud run it: a broker of its own with a SASL_SSL listener
 * (a private CA) and SCRAM-SHA-512. One boot for everything: the topics Job's own script creates
 * the topics through it, then account and checks connect with environment variables alone and a
 * check travels end to end (checks produces checks.check.finished, account consumes it).
 */
describe('Kafka over SASL_SSL with SCRAM-SHA-512 (a broker of its own, like a managed cluster)', () => {
  let broker: KafkaBroker;
  const user = { name: 'svc-platform', password: 'scram-secret-512' };
  let withCredentials: KafkaConnection;
  let serviceEnv: Record<string, string>;
  const services: RunningService[] = [];

  beforeAll(async () => {
    broker = await startKafkaBroker({
      sasl: { mechanism: 'SCRAM-SHA-512', tls: true, users: [user] },
      topics: false,
      tools: true,
    });
    withCredentials = {
      clientId: 'spec',
      brokers: broker.saslBrokers,
      ssl: { ca: [readFileSync(broker.caFile!, 'utf8')] },
      sasl: { mechanism: 'scram-sha-512', username: user.name, password: user.password },
    };
    serviceEnv = {
      KAFKA_BROKERS: broker.saslBrokers.join(','),
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: broker.caFile!,
      // Kafka's own spelling, as a managed cluster's console shows it.
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_SASL_USERNAME: user.name,
      KAFKA_SASL_PASSWORD: user.password,
    };
  }, 180_000);

  afterAll(async () => {
    for (const s of services) await s.close();
    await broker?.stop();
  });

  it("creates the platform's topics with the kafka-topics Job's script and a client config (as from the Secret kyc-kafka-client)", async () => {
    const dir = path.join(harness().dir, 'kafka-topics-job');
    mkdirSync(dir, { recursive: true });
    // The Secret's client.properties, as docs/deployment.md shows it for a private CA.
    writeFileSync(
      path.join(dir, 'client.properties'),
      [
        'security.protocol=SASL_SSL',
        'sasl.mechanism=SCRAM-SHA-512',
        `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${user.name}" password="${user.password}";`,
        'ssl.truststore.type=PEM',
        `ssl.truststore.location=${broker.caFile}`,
        '',
      ].join('\n'),
    );
    // What the image's /opt/kafka/bin/kafka-topics.sh runs (kafka-run-class.sh: the JVM options, TopicCommand).
    const bin = path.join(dir, 'kafka-topics.sh');
    writeFileSync(
      bin,
      `#!/bin/sh\nexec java $KAFKA_HEAP_OPTS $KAFKA_JVM_PERFORMANCE_OPTS -cp '${broker.toolsLibs}/*' org.apache.kafka.tools.TopicCommand "$@"\n`,
    );
    chmodSync(bin, 0o755);
    const job = topicsJob();
    const { stdout } = await run('/bin/sh', ['-ec', job.script], {
      env: {
        ...process.env,
        ...job.env,
        KAFKA_BROKERS: broker.saslBrokers.join(','),
        // One broker here; fewer partitions than the Job's default keep the suite light.
        REPLICATION_FACTOR: '1',
        EVENT_PARTITIONS: '3',
        KAFKA_CLIENT_CONFIG: path.join(dir, 'client.properties'),
        KAFKA_TOPICS_BIN: bin,
      },
      timeout: 240_000,
    });
    expect(stdout).toContain('with ' + path.join(dir, 'client.properties') + ' (security.protocol=SASL_SSL');

    const a = admin(withCredentials, 5);
    await a.connect();
    try {
      const { topics } = await a.fetchTopicMetadata({ topics: TOPIC_SPECS.map((t) => t.name) });
      expect(Object.fromEntries(topics.map((t) => [t.name, t.partitions.length]))).toEqual(
        Object.fromEntries(TOPIC_SPECS.map((t) => [t.name, t.compacted ? 1 : 3])),
      );
      const configs = await a.describeConfigs({
        includeSynonyms: false,
        resources: TOPIC_SPECS.map((t) => ({
          type: ConfigResourceTypes.TOPIC,
          name: t.name,
          configNames: ['cleanup.policy'],
        })),
      });
      expect(
        Object.fromEntries(configs.resources.map((r) => [r.resourceName, r.configEntries[0].configValue])),
      ).toEqual(Object.fromEntries(TOPIC_SPECS.map((t) => [t.name, t.compacted ? 'compact' : 'delete'])));
    } finally {
      await a.disconnect();
    }
  }, 300_000);

  it('runs account and checks from environment variables alone: a check produced by checks is consumed by account', async () => {
    const account = await startService('account', {
      ...serviceEnv,
      KAFKA_CLIENT_ID: 'account-eu-1',
      KAFKA_CONSUMER_GROUP: 'account-sasl-spec',
    });
    services.push(account);
    const checks = await startService('checks', {
      ...serviceEnv,
      KAFKA_CONSUMER_GROUP: 'checks-sasl-spec',
      CHECKS_SANDBOX_LATENCY_SCALE: '0',
    });
    services.push(checks);
    // The tenant's users reach checks through the state topics on this broker.
    const tenant = await createTenant(account.url, [account.url, checks.url]);
    const created = await new ApiClient(checks.url, tenant.apiKey).post('/v1/checks', {
      country: 'CO',
      type: 'person',
      user_authorized: 'true',
      national_id: '1000000002',
      first_name: 'Carlos Andrés',
      last_name: 'Rojas Pérez',
    });
    expect(created.status).toBe(201);
    const checkId = created.body.check.check_id as string;
    await eventually(
      async () => {
        const { rows } = await db().query(`SELECT status FROM account.finished_checks WHERE check_id = $1`, [checkId]);
        expect(rows).toEqual([{ status: expect.any(String) }]);
      },
      { timeoutMs: 60_000 },
    );
    // The clients carry KAFKA_CLIENT_ID.
    const a = admin(withCredentials, 5);
    await a.connect();
    try {
      const { groups } = await a.describeGroups(['account-sasl-spec']);
      expect(groups[0].members.map((m) => m.clientId)).toContain('account-eu-1-consumer');
    } finally {
      await a.disconnect();
    }
  }, 180_000);

  it('is refused with a wrong password', async () => {
    const a = admin({ ...withCredentials, sasl: { ...withCredentials.sasl!, password: 'wrong' } });
    await expect(a.connect()).rejects.toThrow(/SASL SCRAM SHA512 authentication failed|Authentication failed/i);
  });

  it('is refused without TLS or without credentials', async () => {
    const plain = admin({ ...withCredentials, ssl: undefined });
    await expect(plain.connect().then(() => plain.listTopics())).rejects.toThrow();
    await plain.disconnect().catch(() => undefined);
    const anonymous = admin({ ...withCredentials, sasl: undefined });
    await expect(anonymous.connect().then(() => anonymous.listTopics())).rejects.toThrow();
    await anonymous.disconnect().catch(() => undefined);
  });
});
