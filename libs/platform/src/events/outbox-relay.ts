import type { Message, ProducerBatch } from 'kafkajs';
import type { Pool, QueryResult } from 'pg';

import { withClient } from '../database/pooled-client';

/** What the relay needs of a Kafka producer (a kafkajs Producer is one). */
export interface EventProducer {
  sendBatch(batch: ProducerBatch): Promise<unknown>;
}

/** What the relay reports: events published per topic, the outbox's backlog, problems. */
export interface RelayReports {
  published(topic: string, count: number): void;
  pending(count: number): void;
  /** A pass completed (events sent, or none waiting): `at` in ms since the epoch. */
  succeeded?(at: number): void;
  warn(msg: string, fields: Record<string, unknown>): void;
  info(msg: string, fields: Record<string, unknown>): void;
}

interface PendingRow {
  seq: string;
  topic: string;
  message_key: string;
  /** The envelope's JSON text as stored (read as text: sent as is, never parsed and re-serialized). */
  envelope: string | null;
  /** The trace context stored with the event (traceparent, tracestate), null when none was. */
  headers: Record<string, string> | null;
}

/**
 * Passes start at most this often. A kick after a quiet spell starts a pass at once; under load
 * each pass carries the events of this many milliseconds (one transaction, one produce request
 * and one mark for hundreds) instead of one pass per commit (docs/decisions/outbox-relay-gather-window.md).
 */
const GATHER_MS = 100;
const BATCH = 500;

/**
 * Relays committed outbox rows to Kafka in order, marking them published in the same database
 * transaction that locked them (FOR UPDATE SKIP LOCKED, so replicas share the work). Kicked after
 * each commit of its process, with a poll for rows committed by other processes; when Kafka is
 * down the rows stay and are retried with backoff, so nothing is lost. Runs on the relay thread
 * (outbox-relay.worker.ts, started by OutboxRelayService) with a pool of its own.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running = false;
  private again = false;
  private stopped = false;
  private failures = 0;
  private lastCleanup = 0;
  private lastPass = 0;
  private lastSuccessReport = 0;
  private gathering?: NodeJS.Timeout;
  private current: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: Pool,
    private readonly producer: EventProducer,
    private readonly reports: RelayReports,
  ) {}

  start(pollMs: number): void {
    const poll = () => {
      if (this.stopped) return;
      this.kick();
      this.timer = setTimeout(poll, this.failures ? Math.min(5_000, pollMs * 2 ** this.failures) : pollMs);
    };
    poll();
  }

  /** Drains now (coalesced: a kick during a drain schedules one more pass). */
  kick(): void {
    if (this.stopped || this.gathering) return;
    if (this.running) {
      this.again = true;
      return;
    }
    const wait = this.lastPass + GATHER_MS - Date.now();
    if (wait > 0) {
      this.gathering = setTimeout(() => {
        this.gathering = undefined;
        this.kick();
      }, wait);
      return;
    }
    this.running = true;
    this.lastPass = Date.now();
    this.current = this.drain().then((sent) => {
      this.running = false;
      // Kicked meanwhile, or events found: look again (more are likely on the way, also from
      // other processes, whose commits only the poll would otherwise notice).
      if ((this.again || sent > 0) && !this.stopped && !this.failures) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Stops polling and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.gathering);
    await this.current;
  }

  /** Relays until the outbox is empty; the number of events sent (0 also when it failed). */
  private async drain(): Promise<number> {
    let total = 0;
    try {
      for (;;) {
        const sent = await this.relayBatch(BATCH);
        if (this.failures) this.reports.info('outbox relay recovered', { after_failures: this.failures });
        this.failures = 0;
        total += sent;
        if (sent < BATCH) break;
      }
      await this.cleanup();
      // At most once a second: idle polls complete passes many times a second.
      if (Date.now() - this.lastSuccessReport >= 1_000) {
        this.lastSuccessReport = Date.now();
        this.reports.succeeded?.(this.lastSuccessReport);
      }
      return total;
    } catch (err) {
      this.failures = Math.min(this.failures + 1, 10);
      if (this.failures === 1 || this.failures % 10 === 0)
        this.reports.warn('outbox relay failed; will retry', { err });
      return 0;
    }
  }

  /**
   * One pass: three round trips when there are events (the probe; the transaction opened with its
   * rows locked, one simple query; their mark with the commit, another), and the produce request
   * in between.
   */
  private async relayBatch(limit: number): Promise<number> {
    // Idle polls cost one indexed read, not a transaction.
    const { rowCount } = await this.pool.query(`SELECT 1 FROM outbox WHERE published_at IS NULL LIMIT 1`);
    if (!rowCount) return 0;
    return withClient(this.pool, async (client) => {
      // Losing the mark in a crash only re-sends the events, which consumers de-duplicate: no need
      // to wait for the WAL flush (synchronous_commit off).
      const opened = (await client.query(
        `BEGIN; SET LOCAL synchronous_commit = off;
         SELECT seq, topic, message_key, envelope::text AS envelope, NULLIF(headers, '{}') AS headers FROM outbox WHERE published_at IS NULL ORDER BY seq LIMIT ${Math.trunc(limit)} FOR UPDATE SKIP LOCKED`,
      )) as unknown as QueryResult<PendingRow>[];
      const rows = opened[2].rows;
      if (!rows.length) {
        await client.query('COMMIT');
        return 0;
      }
      const byTopic = new Map<string, Message[]>();
      for (const r of rows) {
        const list = byTopic.get(r.topic) ?? [];
        // The stored trace context travels as Kafka headers: the consumer's span continues the producer's trace.
        list.push(
          r.headers
            ? { key: r.message_key, value: r.envelope, headers: r.headers }
            : { key: r.message_key, value: r.envelope },
        );
        byTopic.set(r.topic, list);
      }
      await this.producer.sendBatch({
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
        acks: -1,
      });
      // seq is a bigint read from the table (digits only), so the list is a safe literal.
      await client.query(
        `UPDATE outbox SET published_at = now() WHERE seq = ANY('{${rows.map((r) => r.seq).join(',')}}'::bigint[]); COMMIT`,
      );
      for (const [topic, messages] of byTopic) this.reports.published(topic, messages.length);
      return rows.length;
    });
  }

  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < 60_000) return;
    this.lastCleanup = Date.now();
    await this.pool.query(`DELETE FROM outbox WHERE published_at < now() - interval '1 hour'`);
    const { rows } = await this.pool.query<{ pending: number }>(
      `SELECT count(*)::int AS pending FROM outbox WHERE published_at IS NULL`,
    );
    this.reports.pending(rows[0].pending);
  }
}
