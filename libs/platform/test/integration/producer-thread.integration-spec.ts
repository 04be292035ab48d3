import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { Consumer } from 'kafkajs';
import { ProducerThread } from '@kyc/platform';
import { eventually, harness, testKafka } from '@kyc/testing';

/** The outbox relay's producer on its own thread, against the real broker. */
describe('ProducerThread', () => {
  const topic = `producer-thread-spec-${randomUUID().slice(0, 8)}`;
  const received: { key: string; value: string }[] = [];
  let consumer: Consumer;
  let producer: ProducerThread;

  beforeAll(async () => {
    const admin = testKafka().admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
    consumer = testKafka().consumer({ groupId: `${topic}-reader`, maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void received.push({ key: message.key!.toString(), value: message.value!.toString() }) });
    producer = new ProducerThread({ clientId: 'producer-thread-spec', brokers: harness().kafkaBrokers });
    await producer.start();
  });

  afterAll(async () => {
    await producer?.close();
    await consumer?.disconnect();
  });

  const sent = (key: string) => received.filter((m) => m.key === key);

  it('sends the batches it is handed, each message once, keys and values as given', async () => {
    await producer.sendBatch({ topicMessages: [{ topic, messages: [{ key: 'a', value: '{"n":1}' }, { key: 'b', value: '{"n":2}' }] }], acks: -1 });
    await eventually(() => expect([...sent('a'), ...sent('b')]).toEqual([{ key: 'a', value: '{"n":1}' }, { key: 'b', value: '{"n":2}' }]), { timeoutMs: 20_000 });
  });

  it('rejects a batch the broker refuses, with the broker error, and keeps sending the next ones', async () => {
    await expect(producer.sendBatch({ topicMessages: [{ topic: `no-such-topic-${randomUUID()}`, messages: [{ key: 'x', value: '1' }] }], acks: -1 })).rejects.toThrow(
      /not host this topic-partition|does not exist|UNKNOWN_TOPIC/i,
    );
    await producer.sendBatch({ topicMessages: [{ topic, messages: [{ key: 'c', value: 'after the refusal' }] }], acks: -1 });
    await eventually(() => expect(sent('c')).toHaveLength(1), { timeoutMs: 20_000 });
  }, 60_000);

  it('starts a new thread on the next send after its thread died', async () => {
    const worker = (await (producer as unknown as { starting: Promise<Worker> }).starting)!;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    await worker.terminate();
    await exited;
    await producer.sendBatch({ topicMessages: [{ topic, messages: [{ key: 'd', value: 'from a new thread' }] }], acks: -1 });
    await eventually(() => expect(sent('d')).toEqual([{ key: 'd', value: 'from a new thread' }]), { timeoutMs: 20_000 });
    const next = await (producer as unknown as { starting: Promise<Worker> }).starting;
    expect(next).not.toBe(worker);
  });

  it('refuses to send once closed', async () => {
    const closing = new ProducerThread({ clientId: 'producer-thread-spec-closed', brokers: harness().kafkaBrokers });
    await closing.start();
    await closing.close();
    await expect(closing.sendBatch({ topicMessages: [{ topic, messages: [{ key: 'e', value: 'late' }] }] })).rejects.toThrow('the producer thread is closed');
  });
});
