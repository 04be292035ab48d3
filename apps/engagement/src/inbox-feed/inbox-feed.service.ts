import { Clock } from '@kyc/platform';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';

import { EngagementConfig } from '../config/engagement.config';
import { InboxEventRow, InboxView, visibleTo } from './inbox-event';
import { InboxEventStore } from './inbox-event.store';

/** Rows kept in memory for the channels of this process (older ones are read from the table). */
const RING_ROWS = 10_000;
/** Rows read at once, from the table or the ring. */
const BATCH = 1_000;
const PRUNE_EVERY_MS = 60_000;

/** Where a channel starts: after `cursor`, or told to reload (`reset`) when its id is outside the window. */
export interface ChannelStart {
  cursor: number;
  reset: boolean;
}

/** One open push channel: the rows it has passed (cursor), what it may see, where it writes. */
export class InboxChannel {
  private pumping = false;
  private again = false;
  closed = false;
  /** Ends the channel's stream (set by whoever opened it); called when the process shuts down. */
  end: () => void = () => undefined;

  constructor(
    private readonly feed: InboxFeedService,
    readonly view: InboxView,
    public cursor: number,
    private readonly write: (row: InboxEventRow) => void,
  ) {}

  /** Writes every visible row after the cursor up to the feed's head, each exactly once, in seq order. */
  async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        while (!this.closed && this.cursor < this.feed.head) {
          const rows = await this.feed.rowsAfter(this.cursor);
          if (!rows.length) break;
          for (const row of rows) {
            if (this.closed) return;
            this.cursor = Number(row.seq);
            if (visibleTo(row, this.view)) this.write(row);
          }
        }
      } while (this.again && !this.closed);
    } finally {
      this.pumping = false;
    }
  }
}

/**
 * The rows of inbox_events as this process's push channels read them: one poll of the table for the
 * whole process (every ENGAGEMENT_INBOX_POLL_MS while a channel is open, at once when this process
 * appended a row), the newest rows in memory, older ones from the table. The replay window is the
 * table: rows of the last ENGAGEMENT_INBOX_REPLAY_MINUTES (pruned each minute by worker processes).
 */
@Injectable()
export class InboxFeedService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('inbox-feed');
  private readonly channels = new Set<InboxChannel>();
  private ring: InboxEventRow[] = [];
  /** The ring holds every row with seq in (ringFrom, head]. */
  private ringFrom = 0;
  head = 0;
  private started?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private pruneTimer?: NodeJS.Timeout;
  private polling = false;
  private pollAgain = false;
  private stopped = false;

  constructor(
    private readonly store: InboxEventStore,
    private readonly config: EngagementConfig,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.ENGAGEMENT_WORKER_ENABLED) return;
    this.pruneTimer = setInterval(() => {
      const before = new Date(this.clock.now().getTime() - this.config.ENGAGEMENT_INBOX_REPLAY_MINUTES * 60_000);
      this.store.prune(before).catch((err: unknown) => this.logger.warn({ err, msg: 'inbox prune failed' }));
    }, PRUNE_EVERY_MS);
    this.pruneTimer.unref();
  }

  /** Ends the open streams before the HTTP server closes (it waits for every open connection). */
  onModuleDestroy(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pruneTimer);
    for (const c of [...this.channels]) c.end();
    this.channels.clear();
  }

  /** Where a channel resumes: after `lastEventId` when it lies in the window, else (reset) after the head. */
  async start(lastEventId: number | undefined): Promise<ChannelStart> {
    await this.ensureStarted();
    if (lastEventId === undefined) return { cursor: this.head, reset: false };
    if (lastEventId > this.head) await this.poll();
    const { oldest } = await this.store.bounds();
    const outside = lastEventId > this.head || (oldest > 0 && lastEventId < oldest - 1);
    return outside ? { cursor: this.head, reset: true } : { cursor: lastEventId, reset: false };
  }

  open(view: InboxView, cursor: number, write: (row: InboxEventRow) => void): InboxChannel {
    const channel = new InboxChannel(this, view, cursor, write);
    this.channels.add(channel);
    this.schedule();
    void channel.pump();
    return channel;
  }

  close(channel: InboxChannel): void {
    channel.closed = true;
    this.channels.delete(channel);
  }

  get openChannels(): number {
    return this.channels.size;
  }

  /** A row was appended by this process: read it now rather than at the next poll. */
  wake(): void {
    if (this.channels.size) void this.poll();
  }

  /** Rows after `seq` (at most BATCH), from memory when the ring covers them. */
  async rowsAfter(seq: number): Promise<InboxEventRow[]> {
    if (seq >= this.ringFrom) {
      let i = this.ring.length;
      while (i > 0 && Number(this.ring[i - 1].seq) > seq) i--;
      return this.ring.slice(i, i + BATCH);
    }
    const rows = await this.store.after(seq, BATCH);
    return rows.filter((r) => Number(r.seq) <= this.head);
  }

  private ensureStarted(): Promise<void> {
    this.started ??= this.store.bounds().then(({ head }) => {
      this.head = head;
      this.ringFrom = head;
    });
    return this.started;
  }

  private schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.poll().finally(() => {
        if (this.channels.size) this.schedule();
      });
    }, this.config.ENGAGEMENT_INBOX_POLL_MS);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = true;
    try {
      await this.ensureStarted();
      do {
        this.pollAgain = false;
        for (;;) {
          const rows = await this.store.after(this.head, BATCH);
          if (!rows.length) break;
          this.ring.push(...rows);
          this.head = Number(rows[rows.length - 1].seq);
          if (this.ring.length > RING_ROWS) {
            const dropped = this.ring.splice(0, this.ring.length - RING_ROWS);
            this.ringFrom = Number(dropped[dropped.length - 1].seq);
          }
          if (rows.length < BATCH) break;
        }
      } while (this.pollAgain);
    } catch (err: unknown) {
      this.logger.warn({ err, msg: 'inbox poll failed' });
    } finally {
      this.polling = false;
    }
    for (const c of this.channels) void c.pump();
  }
}
