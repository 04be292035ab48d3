import { parentPort, workerData } from 'node:worker_threads';

import { Logger } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { Partitioners } from 'kafkajs';
import { Pool } from 'pg';

import { searchPathOption } from '../database/pooled-client';
import { JsonLogger, rootLogger } from '../observability/logger';
import { kafkaClientOptions, KafkaConnection } from './kafka';
import { OutboxRelay } from './outbox-relay';

/** What OutboxRelayService hands the relay thread. */
export interface RelayThreadData {
  /** The service's name and log level, for the thread's log lines. */
  service: string;
  logLevel: string;
  databaseUrl: string;
  schema: string;
  /** How the producer connects (client id prefix, brokers, TLS, SASL). */
  kafka: KafkaConnection;
  pollMs: number;
  /** Through a transaction-mode pooler: no startup search_path (the pooler sets it). */
  transactionPooler?: boolean;
}

export type ToRelayThread = { type: 'kick' } | { type: 'stop' };
export type FromRelayThread =
  | { type: 'ready' }
  | { type: 'failed'; error: string }
  | { type: 'published'; topic: string; count: number }
  | { type: 'pending'; count: number }
  | { type: 'succeeded'; at: number };

/**
 * The relay thread: a pool of two connections to the service's schema, the process's Kafka
 * producer (a ClientKafka of @nestjs/microservices in producer-only mode) and the OutboxRelay
 * between them. Kicked by the main thread after its commits; reports what it published.
 */
async function main(port: NonNullable<typeof parentPort>, data: RelayThreadData): Promise<void> {
  const log = rootLogger(data.service, data.logLevel).child({ context: 'outbox-relay' });
  Logger.overrideLogger(new JsonLogger());
  const post = (msg: FromRelayThread) => port.postMessage(msg);
  const pool = new Pool({
    connectionString: data.databaseUrl,
    max: 2,
    ...(data.transactionPooler ? {} : { options: searchPathOption(data.schema) }),
  });
  pool.on('error', (err) => log.warn({ err }, 'outbox relay database connection failed'));
  const client = new ClientKafka({
    client: kafkaClientOptions(data.kafka, 'producer'),
    producer: { allowAutoTopicCreation: false, idempotent: false, createPartitioner: Partitioners.DefaultPartitioner },
    producerOnlyMode: true,
  });
  let relay: OutboxRelay;
  try {
    relay = new OutboxRelay(pool, await client.connect(), {
      published: (topic, count) => post({ type: 'published', topic, count }),
      pending: (count) => post({ type: 'pending', count }),
      succeeded: (at) => post({ type: 'succeeded', at }),
      warn: (msg, fields) => log.warn(fields, msg),
      info: (msg, fields) => log.info(fields, msg),
    });
  } catch (err) {
    await pool.end().catch(() => undefined);
    post({ type: 'failed', error: String((err as Error)?.message ?? err) });
    return;
  }
  port.on('message', (msg: ToRelayThread) => {
    if (msg.type === 'kick') relay.kick();
    else if (msg.type === 'stop') {
      void relay
        .stop()
        .then(() => Promise.allSettled([client.close(), pool.end()]))
        .finally(() => port.close());
    }
  });
  relay.start(data.pollMs);
  post({ type: 'ready' });
}

if (parentPort) void main(parentPort, workerData as RelayThreadData);
