import { Clock, JobQueueService } from '@kyc/platform';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';

import { EngagementConfig } from '../config/engagement.config';
import { OutboundsService } from './outbounds.service';

export const QUALITY_REVIEW_QUEUE = 'outbound-quality-review';

/**
 * The daily quality review of FLAGGED outbounds, a durable job: each run reviews, then enqueues the
 * next one at ENGAGEMENT_QUALITY_REVIEW_HOUR of the next day (by the service's Clock; the dedupe key
 * is the day, so restarts and replicas never schedule a day twice). Transactional: the review's
 * status changes, their events and the job's completion commit together.
 */
@Injectable()
export class QualityReviewWorker implements OnApplicationBootstrap {
  private readonly logger = new Logger('quality-review');

  constructor(
    private readonly jobs: JobQueueService,
    private readonly outbounds: OutboundsService,
    private readonly config: EngagementConfig,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.ENGAGEMENT_WORKER_ENABLED) return;
    this.jobs.register(
      QUALITY_REVIEW_QUEUE,
      async (_job, m) => {
        const result = await this.outbounds.reviewQuality(m);
        if (result.approved || result.disabled) this.logger.log({ msg: 'quality review', ...result });
        await this.scheduleNext(m);
      },
      { transactional: true, concurrency: 1 },
    );
    await this.scheduleNext(null);
  }

  private async scheduleNext(m: Parameters<JobQueueService['enqueue']>[0]) {
    const now = this.clock.now();
    const next = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), this.config.ENGAGEMENT_QUALITY_REVIEW_HOUR),
    );
    if (next <= now) next.setUTCDate(next.getUTCDate() + 1);
    await this.jobs.enqueue(
      m,
      QUALITY_REVIEW_QUEUE,
      {},
      { runAt: next, dedupeKey: `quality-review:${next.toISOString()}` },
    );
  }
}
