import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { commitSignal } from '../database/commit-signal';
import { outboxPending, outboxPublished, outboxRelayLastSuccess } from '../observability/metrics';
import type { FromRelayThread, RelayThreadData, ToRelayThread } from './outbox-relay.worker';

/**
 * The relay thread's script, compiled: next to this file in dist/. When this file runs from the
 * TypeScript sources (jest), the build's copy of it (`npm test` and `npm run test:integration`
 * build first).
 */
export function relayThreadScript(dir = __dirname): string {
  const here = path.join(dir, 'outbox-relay.worker.js');
  if (existsSync(here)) return here;
  const root = path.resolve(dir, '../../../..');
  const built = path.join(root, 'dist', path.relative(root, dir), 'outbox-relay.worker.js');
  if (existsSync(built)) return built;
  throw new Error(`the outbox relay thread's script is missing (${here}, ${built}): run \`npm run build\``);
}

/** A relay thread that died is started again after this long. */
const RESTART_MS = 1_000;

/** Commits kick the relay thread at most this often (onCommit). */
const KICK_INTERVAL_MS = 20;

/**
 * The service's outbox relay (OutboxRelay, outbox-relay.ts) on a worker thread of its own
 * (outbox-relay.worker.ts), with its own two database connections and the process's Kafka
 * producer: reading the events, encoding them (kafkajs builds record batches and their CRC-32C in
 * JavaScript), the broker round trip and the mark run off the event loop that serves HTTP. This
 * service kicks the thread after the commits of each event-loop turn and turns its reports into metrics;
 * a thread that dies is started again (its rows were never marked, so they are sent then).
 */
@Injectable()
export class OutboxRelayService implements OnApplicationShutdown {
  private readonly logger = new Logger('outbox-relay');
  /**
   * Commits signalled within one event-loop turn (a busy loop finishes many) make one kick: one
   * message to the thread, not one each (a pass reads every row committed before it starts). Under
   * load, at most one kick per KICK_INTERVAL_MS: the thread starts passes at most every 100 ms and
   * looks again after a pass that found events, so more messages would only cost both threads CPU
   * (2.6 % of a POST /v1/checks before). The first commit after a quiet spell kicks at once.
   */
  private readonly onCommit = () => {
    if (this.kickScheduled) return;
    this.kickScheduled = true;
    const fire = () => {
      this.kickScheduled = false;
      this.lastKick = Date.now();
      this.kick();
    };
    const wait = this.lastKick + KICK_INTERVAL_MS - Date.now();
    if (wait > 0) setTimeout(fire, wait).unref();
    else setImmediate(fire);
  };
  private kickScheduled = false;
  private lastKick = 0;
  private worker?: Worker;
  private data?: RelayThreadData;
  private stopped = false;
  private restartTimer?: NodeJS.Timeout;

  constructor(private readonly dataSource: DataSource) {}

  /** Starts the relay thread; resolves once its producer is connected (rejects when Kafka cannot be reached). */
  async start(data: RelayThreadData): Promise<void> {
    this.data = data;
    this.worker = await this.spawn(data);
    commitSignal.on('commit', this.onCommit);
  }

  /** Asks the relay thread for a pass now (it coalesces kicks that arrive during one). */
  kick(): void {
    this.worker?.postMessage({ type: 'kick' } satisfies ToRelayThread);
  }

  /** Number of events not yet relayed (for tests and health). */
  async pending(): Promise<number> {
    const [{ pending }] = await this.dataSource.query<{ pending: number }[]>(
      `SELECT count(*)::int AS pending FROM outbox WHERE published_at IS NULL`,
    );
    return pending;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    commitSignal.off('commit', this.onCommit);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    // The pass under way finishes, then the thread closes its producer and connections.
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'stop' } satisfies ToRelayThread);
    const timeout = setTimeout(() => void worker.terminate(), 10_000);
    await exited;
    clearTimeout(timeout);
  }

  private spawn(data: RelayThreadData): Promise<Worker> {
    return new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(relayThreadScript(), { workerData: data });
      let ready = false;
      worker.on('message', (msg: FromRelayThread) => {
        if (msg.type === 'published') outboxPublished.inc({ topic: msg.topic }, msg.count);
        else if (msg.type === 'pending') outboxPending.set(msg.count);
        else if (msg.type === 'succeeded') outboxRelayLastSuccess.set(msg.at / 1000);
        else if (msg.type === 'ready') {
          ready = true;
          resolve(worker);
        } else if (msg.type === 'failed')
          reject(new Error(`the outbox relay could not connect to Kafka: ${msg.error}`));
      });
      worker.on('error', (err) => {
        if (ready) this.logger.error({ err, msg: 'outbox relay thread failed' });
        else reject(err);
      });
      worker.on('exit', (code) => {
        if (!ready) return reject(new Error(`the outbox relay thread exited (code ${code}) before it was ready`));
        if (this.stopped || this.worker !== worker) return;
        this.worker = undefined;
        this.logger.error({ msg: 'outbox relay thread exited; starting it again', code });
        this.restartTimer = setTimeout(() => void this.restart(), RESTART_MS);
      });
    });
  }

  private async restart(): Promise<void> {
    if (this.stopped || !this.data) return;
    try {
      const worker = await this.spawn(this.data);
      if (this.stopped) worker.postMessage({ type: 'stop' } satisfies ToRelayThread);
      else this.worker = worker;
    } catch (err: unknown) {
      this.logger.error({ err, msg: 'outbox relay thread did not start; will retry' });
      this.restartTimer = setTimeout(() => void this.restart(), RESTART_MS);
    }
  }
}
