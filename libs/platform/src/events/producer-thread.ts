import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import type { ProducerBatch } from 'kafkajs';

/** What the outbox relay needs of a Kafka producer (a kafkajs Producer is one; so is ProducerThread). */
export interface EventProducer {
  sendBatch(batch: ProducerBatch): Promise<unknown>;
}

export interface ProducerThreadData {
  clientId: string;
  brokers: string[];
}

export type ToProducerThread = { type: 'send'; id: number; batch: ProducerBatch } | { type: 'close' };
type FromProducerThread = { ready: boolean; error?: string } | { id: number; error?: string };

/**
 * The worker script, compiled: next to this file in dist/. When this file runs from the
 * TypeScript sources (jest), the build's copy of it (`npm test` and `npm run test:integration`
 * build first).
 */
export function producerThreadScript(dir = __dirname): string {
  const here = path.join(dir, 'producer-thread.worker.js');
  if (existsSync(here)) return here;
  const root = path.resolve(dir, '../../../..');
  const built = path.join(root, 'dist', path.relative(root, dir), 'producer-thread.worker.js');
  if (existsSync(built)) return built;
  throw new Error(`the producer thread's script is missing (${here}, ${built}): run \`npm run build\``);
}

/**
 * The process's Kafka producer, on a worker thread of its own (producer-thread.worker.ts): the
 * outbox relay hands it each pass's events, and their encoding (kafkajs builds record batches and
 * their CRC-32C in JavaScript) and the broker round trip run off the event loop that serves HTTP.
 * Measured with the checks service under POST load: that work was 14% of its event loop's busy
 * time. A batch the thread fails to send (Kafka down, or the thread died) rejects, so the relay
 * keeps its rows and retries them; a thread that died is started again on the next batch.
 */
export class ProducerThread implements EventProducer {
  private readonly logger = new Logger('producer-thread');
  private readonly waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  private starting?: Promise<Worker>;
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly data: ProducerThreadData,
    private readonly script = producerThreadScript(),
  ) {}

  /** Starts the thread and connects its producer; rejects when Kafka cannot be reached. */
  async start(): Promise<void> {
    await this.thread();
  }

  async sendBatch(batch: ProducerBatch): Promise<void> {
    const worker = await this.thread();
    return new Promise<void>((resolve, reject) => {
      const id = ++this.nextId;
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ type: 'send', id, batch } satisfies ToProducerThread);
    });
  }

  /** Disconnects the producer and ends the thread (batches still in flight are answered first). */
  async close(): Promise<void> {
    this.closed = true;
    const worker = await this.starting?.catch(() => undefined);
    if (!worker) return;
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.postMessage({ type: 'close' } satisfies ToProducerThread);
    });
  }

  private thread(): Promise<Worker> {
    if (this.closed) return Promise.reject(new Error('the producer thread is closed'));
    this.starting ??= this.spawn();
    return this.starting;
  }

  private spawn(): Promise<Worker> {
    const starting = new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(this.script, { workerData: this.data });
      let ready = false;
      worker.on('message', (msg: FromProducerThread) => {
        if ('id' in msg) {
          const waiter = this.waiting.get(msg.id);
          this.waiting.delete(msg.id);
          if (msg.error) waiter?.reject(new Error(msg.error));
          else waiter?.resolve();
        } else if (msg.ready) {
          ready = true;
          resolve(worker);
        } else {
          reject(new Error(`the Kafka producer did not connect: ${msg.error}`));
          void worker.terminate();
        }
      });
      worker.on('error', (err) => {
        if (ready) this.logger.error({ err, msg: 'producer thread failed' });
        else reject(err);
      });
      worker.on('exit', (code) => {
        // Sends in flight fail (the relay keeps their rows and retries); the next one starts a new thread.
        for (const waiter of this.waiting.values()) waiter.reject(new Error(`the producer thread exited (code ${code})`));
        this.waiting.clear();
        if (this.starting === starting) this.starting = undefined;
        if (!ready) reject(new Error(`the producer thread exited (code ${code}) before it was ready`));
      });
    });
    return starting;
  }
}
