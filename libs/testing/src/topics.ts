import { randomUUID } from 'node:crypto';

import { Consumer } from 'kafkajs';

import { testKafka } from './harness';

/** A topic's messages (key, parsed JSON value) collected in the background by collectTopic. */
export interface CollectedTopic {
  messages: { key: string; value: any }[];
  stop(): Promise<void>;
}

/**
 * Collects the messages of a topic (from the beginning, in a consumer group of its own) in the background.
 * Its idle fetch returns after 100 ms (kafkajs's default is 5 s), so `stop()` does not wait seconds for it.
 */
export async function collectTopic(topic: string): Promise<CollectedTopic> {
  const consumer: Consumer = testKafka().consumer({ groupId: `test-${randomUUID()}`, maxWaitTimeInMs: 100 });
  const messages: CollectedTopic['messages'] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: ({ message }) => {
      messages.push({ key: message.key?.toString() ?? '', value: JSON.parse(message.value?.toString() ?? 'null') });
      return Promise.resolve();
    },
  });
  return { messages, stop: () => consumer.disconnect() };
}
