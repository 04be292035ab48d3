import { parentPort, workerData } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { Partitioners, Producer } from 'kafkajs';
import { JsonLogger } from '../observability/logger';
import { kafkaClientOptions } from './kafka';
import type { ProducerThreadData, ToProducerThread } from './producer-thread';

/**
 * The producer thread (ProducerThread): owns the process's Kafka producer, a ClientKafka of
 * @nestjs/microservices in producer-only mode, and sends the batches the main thread posts.
 * Replies { id, error? } per batch; closes the producer and exits when told to.
 */
async function main(port: NonNullable<typeof parentPort>, data: ProducerThreadData): Promise<void> {
  Logger.overrideLogger(new JsonLogger());
  const client = new ClientKafka({
    client: kafkaClientOptions(data.clientId, data.brokers),
    producer: { allowAutoTopicCreation: false, idempotent: false, createPartitioner: Partitioners.DefaultPartitioner },
    producerOnlyMode: true,
  });
  let producer: Producer;
  try {
    producer = await client.connect();
  } catch (err) {
    port.postMessage({ ready: false, error: String((err as Error)?.message ?? err) });
    return;
  }
  port.on('message', (msg: ToProducerThread) => {
    if (msg.type === 'close') {
      void client.close().finally(() => port.close());
      return;
    }
    producer.sendBatch(msg.batch).then(
      () => port.postMessage({ id: msg.id }),
      (err) => port.postMessage({ id: msg.id, error: String((err as Error)?.message ?? err) }),
    );
  });
  port.postMessage({ ready: true });
}

if (parentPort) void main(parentPort, workerData as ProducerThreadData);
