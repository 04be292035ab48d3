import { Clock, JobQueueService } from '@kyc/platform';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { EngagementConfig } from '../config/engagement.config';
import { RetentionStore } from './retention.store';

export const RETENTION_QUEUE = 'engagement-retention';
const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/**
 * Prunes the append-only tables of engagement, a durable hourly job (dedupe key: the hour, so
 * restarts and replicas never schedule an hour twice; transactional with its rescheduling):
 * - webhook_events older than ENGAGEMENT_WEBHOOK_RETENTION_DAYS (by when they were processed, or
 *   received when never processed);
 * - outbound_quality_history older than ENGAGEMENT_QUALITY_HISTORY_RETENTION_DAYS, except the newest
 *   rating of each outbound before the cutoff (the quality review's current run starts no later).
 * Finished jobs are pruned by the platform (JOBS_RETENTION_HOURS).
 */
@Injectable()
export class RetentionWorker implements OnApplicationBootstrap {
  private readonly logger = new Logger('retention');

  constructor(
    private readonly jobs: JobQueueService,
    private readonly store: RetentionStore,
    private readonly config: EngagementConfig,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.ENGAGEMENT_WORKER_ENABLED) return;
    this.jobs.register(
      RETENTION_QUEUE,
      async (_job, m) => {
        const pruned = await this.prune(m);
        if (pruned.webhookEvents || pruned.qualityHistory) this.logger.log({ msg: 'pruned', ...pruned });
        await this.scheduleNext(m);
      },
      { transactional: true, concurrency: 1 },
    );
    await this.scheduleNext(null);
  }

  async prune(m: EntityManager): Promise<{ webhookEvents: number; qualityHistory: number }> {
    const now = this.clock.now().getTime();
    const webhookCutoff = new Date(now - this.config.ENGAGEMENT_WEBHOOK_RETENTION_DAYS * DAY_MS);
    const qualityCutoff = new Date(now - this.config.ENGAGEMENT_QUALITY_HISTORY_RETENTION_DAYS * DAY_MS);
    const webhookEvents = await this.store.pruneWebhookEvents(m, webhookCutoff);
    const qualityHistory = await this.store.pruneQualityHistory(m, qualityCutoff);
    return { webhookEvents, qualityHistory };
  }

  private async scheduleNext(m: EntityManager | null) {
    const next = new Date(Math.floor(this.clock.now().getTime() / HOUR_MS) * HOUR_MS + HOUR_MS);
    await this.jobs.enqueue(m, RETENTION_QUEUE, {}, { runAt: next, dedupeKey: `retention:${next.toISOString()}` });
  }
}
