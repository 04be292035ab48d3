import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { QueryResult } from 'pg';
import { DataSource } from 'typeorm';
import { commitSignal } from '../database/commit-signal';
import { withPooledClient } from '../database/raw-entity';
import { outboxPending, outboxPublished } from '../observability/metrics';
import type { EventProducer } from './producer-thread';

interface PendingRow {
  seq: string;
  topic: string;
  message_key: string;
  /** The envelope's JSON text as stored (read as text: sent as is, never parsed and re-serialized). */
  envelope: string | null;
}

/**
 * After a pass that found events or was asked for meanwhile, the next one runs this much later:
 * under load each pass then carries the events of a few milliseconds (one transaction and one
 * produce request for many) instead of one pass per commit.
 */
const GATHER_MS = 5;

/**
 * Relays committed outbox rows to Kafka in order, marking them published in the same database
 * transaction that locked them (FOR UPDATE SKIP LOCKED, so replicas share the work). Woken after
 * each commit of this process (commitSignal), with a poll for rows committed by other processes;
 * when Kafka is down the rows stay and are retried with backoff, so nothing is lost.
 */
@Injectable()
export class OutboxRelayService implements OnApplicationShutdown {
  private readonly logger = new Logger('outbox-relay');
  private producer?: EventProducer;
  private readonly onCommit = () => this.kick();
  private timer?: NodeJS.Timeout;
  private running = false;
  private again = false;
  private stopped = false;
  private failures = 0;
  private lastCleanup = 0;
  private current: Promise<void> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {}

  start(producer: EventProducer, pollMs: number): void {
    this.producer = producer;
    commitSignal.on('commit', this.onCommit);
    const poll = () => {
      if (this.stopped) return;
      this.kick();
      this.timer = setTimeout(poll, this.failures ? Math.min(5_000, pollMs * 2 ** this.failures) : pollMs);
    };
    poll();
  }

  /** Drains now (coalesced: a kick during a drain schedules one more pass). */
  kick(): void {
    if (this.stopped || !this.producer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.current = this.drain().then((sent) => {
      this.running = false;
      // Kicked meanwhile, or events found: look again shortly (more are likely on the way, also
      // from other processes, whose commits only the poll would otherwise notice).
      if ((this.again || sent > 0) && !this.stopped && !this.failures) {
        this.again = false;
        setTimeout(() => this.kick(), GATHER_MS).unref();
      }
    });
  }

  /** Relays until the outbox is empty; the number of events sent (0 also when it failed). */
  private async drain(): Promise<number> {
    let total = 0;
    try {
      for (;;) {
        const sent = await this.relayBatch(500);
        if (this.failures) this.logger.log({ msg: 'outbox relay recovered', after_failures: this.failures });
        this.failures = 0;
        total += sent;
        if (sent < 500) break;
      }
      await this.cleanup();
      return total;
    } catch (err) {
      this.failures = Math.min(this.failures + 1, 10);
      if (this.failures === 1 || this.failures % 10 === 0) this.logger.warn({ err, msg: 'outbox relay failed; will retry' });
      return 0;
    }
  }

  /**
   * One pass: three round trips when there are events (the probe; the transaction opened with its
   * rows locked, one simple query; their mark with the commit, another), and the produce request
   * in between. Under load a pass runs every few milliseconds, so its round trips cost the service
   * as much as the requests that wrote the events.
   */
  private async relayBatch(limit: number): Promise<number> {
    // Idle polls cost one indexed read, not a transaction.
    const [any] = await this.dataSource.query(`SELECT 1 FROM outbox WHERE published_at IS NULL LIMIT 1`);
    if (!any) return 0;
    return withPooledClient(this.dataSource, async (client) => {
      // Losing the mark in a crash only re-sends the events, which consumers de-duplicate: no need
      // to wait for the WAL flush (synchronous_commit off).
      const opened = (await client.query(
        `BEGIN; SET LOCAL synchronous_commit = off;
         SELECT seq, topic, message_key, envelope::text AS envelope FROM outbox WHERE published_at IS NULL ORDER BY seq LIMIT ${Math.trunc(limit)} FOR UPDATE SKIP LOCKED`,
      )) as unknown as QueryResult<PendingRow>[];
      const rows = opened[2].rows;
      if (!rows.length) {
        await client.query('COMMIT');
        return 0;
      }
      const byTopic = new Map<string, { key: string; value: string | null }[]>();
      for (const r of rows) {
        const list = byTopic.get(r.topic) ?? [];
        list.push({ key: r.message_key, value: r.envelope });
        byTopic.set(r.topic, list);
      }
      await this.producer!.sendBatch({ topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })), acks: -1 });
      // seq is a bigint read from the table (digits only), so the list is a safe literal.
      await client.query(`UPDATE outbox SET published_at = now() WHERE seq = ANY('{${rows.map((r) => r.seq).join(',')}}'::bigint[]); COMMIT`);
      for (const [topic, messages] of byTopic) outboxPublished.inc({ topic }, messages.length);
      return rows.length;
    });
  }

  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < 60_000) return;
    this.lastCleanup = Date.now();
    await this.dataSource.query(`DELETE FROM outbox WHERE published_at < now() - interval '1 hour'`);
    const [{ pending }] = await this.dataSource.query(`SELECT count(*)::int AS pending FROM outbox WHERE published_at IS NULL`);
    outboxPending.set(pending);
  }

  /** Number of events not yet relayed (for tests and health). */
  async pending(): Promise<number> {
    const [{ pending }] = await this.dataSource.query(`SELECT count(*)::int AS pending FROM outbox WHERE published_at IS NULL`);
    return pending;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    commitSignal.off('commit', this.onCommit);
    await this.current;
  }
}
