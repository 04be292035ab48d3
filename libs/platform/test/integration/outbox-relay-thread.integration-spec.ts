import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';

import { closeDb, db, eventually, harness, testKafka } from '@kyc/testing';
import { Consumer } from 'kafkajs';
import { DataSource } from 'typeorm';

import { migrateSchema } from '../../src/database/data-source';
import { PlatformTables1763769600000 } from '../../src/database/platform-tables.migration';
import { OutboxRelayService } from '../../src/events/outbox-relay.service';
import { metricsRegistry } from '../../src/observability/metrics';

/** The outbox relay on its own thread, on a schema of its own, against the real PostgreSQL and broker. */
describe('OutboxRelayService (relay thread)', () => {
  const id = randomUUID().slice(0, 8);
  const schema = `relay_spec_${id}`;
  const topic = `relay-thread-spec-${id}`;
  const received: { key: string; value: string }[] = [];
  let consumer: Consumer;
  let relay: OutboxRelayService;

  const commit = async (key: string, value: object) => {
    await db().query(
      `INSERT INTO ${schema}.outbox (id, topic, message_key, type, envelope) VALUES ($1, $2, $3, 'spec.event', $4)`,
      [randomUUID(), topic, key, value],
    );
    relay.kick();
  };
  const unpublished = async () =>
    (await db().query(`SELECT count(*)::int AS n FROM ${schema}.outbox WHERE published_at IS NULL`)).rows[0]
      .n as number;
  const thread = () => (relay as unknown as { worker?: Worker }).worker;

  beforeAll(async () => {
    await migrateSchema({
      url: harness().databaseUrl,
      schema,
      entities: [],
      migrations: [PlatformTables1763769600000],
    });
    const admin = testKafka().admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
    consumer = testKafka().consumer({ groupId: `${topic}-reader`, maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) =>
        void received.push({ key: message.key!.toString(), value: message.value!.toString() }),
    });
    // pending() is the only use of the DataSource; the thread has connections of its own.
    relay = new OutboxRelayService({
      query: (sql: string) =>
        db()
          .query(sql.replace('FROM outbox', `FROM ${schema}.outbox`))
          .then((r) => r.rows),
    } as unknown as DataSource);
    await relay.start({
      service: 'relay-spec',
      logLevel: 'warn',
      databaseUrl: harness().databaseUrl,
      schema,
      kafka: { clientId: 'relay-thread-spec', brokers: harness().kafkaBrokers },
      pollMs: 60_000,
    });
  });

  afterAll(async () => {
    await relay?.onApplicationShutdown();
    await consumer?.disconnect();
    await db().query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await closeDb();
  });

  const sent = (key: string) => received.filter((m) => m.key === key).map((m) => JSON.parse(m.value));

  it('publishes committed events once each, in order, marks them published and counts them', async () => {
    const before =
      (await metricsRegistry.getSingleMetric('outbox_events_published_total')!.get()).values.find(
        (v) => v.labels.topic === topic,
      )?.value ?? 0;
    for (let n = 1; n <= 3; n++) await commit('a', { n });
    await eventually(() => expect(sent('a')).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]), { timeoutMs: 20_000 });
    await eventually(async () => expect(await unpublished()).toBe(0), { timeoutMs: 10_000 });
    expect(await relay.pending()).toBe(0);
    const after =
      (await metricsRegistry.getSingleMetric('outbox_events_published_total')!.get()).values.find(
        (v) => v.labels.topic === topic,
      )?.value ?? 0;
    expect(after - before).toBe(3);
    await new Promise((r) => setTimeout(r, 500));
    expect(sent('a')).toHaveLength(3);
  });

  it('starts a thread that died again, which sends what was committed meanwhile', async () => {
    const first = thread()!;
    const exited = new Promise((resolve) => first.once('exit', resolve));
    await first.terminate();
    await exited;
    await commit('b', { after: 'the thread died' });
    await eventually(() => expect(sent('b')).toEqual([{ after: 'the thread died' }]), { timeoutMs: 20_000 });
    expect(thread()).toBeDefined();
    expect(thread()).not.toBe(first);
    // The mark commits after the broker acknowledged the batch, so it can trail the consumer by a moment.
    await eventually(async () => expect(await unpublished()).toBe(0), { timeoutMs: 10_000 });
  });
});
