import { TOPIC_SPECS } from '@kyc/contracts';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Admin } from 'kafkajs';
import { DataSource } from 'typeorm';

import { rawQuery } from '../database/raw-entity';
import {
  eventsParked,
  jobsOldestDueAge,
  jobsPending,
  kafkaConsumerLag,
  outboxOldestPendingAge,
  outboxPending,
} from './metrics';

/** The backlog of the service's schema in one statement: outbox, jobs per queue, parked events per consumer. */
const BACKLOG_SQL = `
  SELECT 'outbox' AS kind, NULL AS name, count(*)::int AS n,
         COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS age
    FROM outbox WHERE published_at IS NULL
  UNION ALL
  SELECT 'jobs', queue, count(*)::int,
         COALESCE(EXTRACT(EPOCH FROM now() - min(run_at) FILTER (WHERE run_at <= now())), 0)::float8
    FROM jobs WHERE status = 'pending' GROUP BY queue
  UNION ALL
  SELECT 'parked', consumer, count(*)::int, 0 FROM parked_messages GROUP BY consumer`;

interface BacklogRow {
  kind: 'outbox' | 'jobs' | 'parked';
  name: string | null;
  n: number;
  age: number;
}

/**
 * Samples what an operator alerts on, on a timer of its own (METRICS_SAMPLE_MS), apart from the
 * work it describes: a stuck relay or consumer cannot freeze its own gauge. From the schema: the
 * outbox backlog and its oldest event's age, each queue's pending jobs and how long the oldest
 * due one has waited, parked events per consumer. From Kafka: the lag of the service's consumer
 * group per topic. Every replica reports the same values (alert on max, not sum).
 */
@Injectable()
export class MetricsSampler implements OnApplicationShutdown {
  private readonly logger = new Logger('metrics');
  private timer?: NodeJS.Timeout;
  private failing = false;
  private readonly seen = { jobs: new Set<string>(), parked: new Set<string>(), lag: new Set<string>() };

  constructor(private readonly dataSource: DataSource) {}

  /** Samples now and every `intervalMs`; `group` is the service's consumer group (none: no lag). */
  start(intervalMs: number, admin?: Admin, group?: string): void {
    const tick = () => {
      void this.sample(admin, group).finally(() => {
        if (this.timer !== undefined) this.timer = setTimeout(tick, intervalMs).unref();
      });
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  /** One sample of every gauge (also for tests). */
  async sample(admin?: Admin, group?: string): Promise<void> {
    const results = await Promise.allSettled([
      this.sampleBacklog(),
      admin && group ? this.sampleLag(admin, group) : null,
    ]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed && !this.failing) this.logger.warn({ err: failed.reason as unknown, msg: 'sampling metrics failed' });
    this.failing = Boolean(failed);
  }

  private async sampleBacklog(): Promise<void> {
    const rows = await rawQuery<BacklogRow>(this.dataSource, BACKLOG_SQL, []);
    const now = { jobs: new Set<string>(), parked: new Set<string>() };
    for (const r of rows) {
      if (r.kind === 'outbox') {
        outboxPending.set(r.n);
        outboxOldestPendingAge.set(r.n ? r.age : 0);
      } else if (r.kind === 'jobs') {
        now.jobs.add(r.name!);
        jobsPending.set({ queue: r.name! }, r.n);
        jobsOldestDueAge.set({ queue: r.name! }, r.age);
      } else {
        now.parked.add(r.name!);
        eventsParked.set({ consumer: r.name! }, r.n);
      }
    }
    // A queue or consumer seen before and empty now reads 0, not its last value.
    for (const q of this.seen.jobs)
      if (!now.jobs.has(q)) {
        jobsPending.set({ queue: q }, 0);
        jobsOldestDueAge.set({ queue: q }, 0);
      }
    for (const c of this.seen.parked) if (!now.parked.has(c)) eventsParked.set({ consumer: c }, 0);
    for (const q of now.jobs) this.seen.jobs.add(q);
    for (const c of now.parked) this.seen.parked.add(c);
  }

  /**
   * The group's committed offsets against each topic's end, per event topic the group has
   * committed on (a partition of it never committed counts from its start).
   */
  private async sampleLag(admin: Admin, group: string): Promise<void> {
    const topics = TOPIC_SPECS.filter((t) => !t.compacted).map((t) => t.name);
    const committed = await admin.fetchOffsets({ groupId: group, topics });
    for (const { topic, partitions } of committed) {
      if (!partitions.some((p) => BigInt(p.offset) >= 0n)) continue;
      const ends = await admin.fetchTopicOffsets(topic);
      let lag = 0n;
      for (const end of ends) {
        const c = partitions.find((p) => p.partition === end.partition);
        const from = c && BigInt(c.offset) >= 0n ? BigInt(c.offset) : BigInt(end.low);
        if (BigInt(end.high) > from) lag += BigInt(end.high) - from;
      }
      kafkaConsumerLag.set({ group, topic }, Number(lag));
      this.seen.lag.add(topic);
    }
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
