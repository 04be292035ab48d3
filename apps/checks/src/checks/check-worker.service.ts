import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CHECK_EVENT_TYPES, CheckFinishedPayload, TOPICS } from '@kyc/contracts';
import { OutboxService } from '@kyc/platform';
import { ChecksConfig } from '../config/checks.config';
import { CheckEntity } from './check.entity';
import { checkRecord } from './check.presenter';

/**
 * Completes queued checks. Rows are claimed with FOR UPDATE SKIP LOCKED, so any number of
 * workers share the queue and a crashed worker's rows are picked up again. The state change and
 * its `checks.check.finished` event commit in one transaction.
 * Placeholder result: the collectors and scoring of the check engine replace it.
 */
@Injectable()
export class CheckWorkerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('check-worker');
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private current: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly config: ChecksConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.CHECKS_WORKER_ENABLED) return;
    const loop = async () => {
      if (this.stopped) return;
      let processed = 0;
      try {
        this.current = this.processBatch(this.config.CHECKS_WORKER_BATCH);
        processed = (await this.current) as number;
      } catch (err) {
        this.logger.warn({ err, msg: 'check worker pass failed' });
      }
      if (!this.stopped) this.timer = setTimeout(loop, processed === this.config.CHECKS_WORKER_BATCH ? 0 : this.config.CHECKS_WORKER_POLL_MS);
    };
    this.timer = setTimeout(loop, this.config.CHECKS_WORKER_POLL_MS);
  }

  async processBatch(limit: number): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows: CheckEntity[] = await manager
        .getRepository(CheckEntity)
        .createQueryBuilder('c')
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .where('c.status = :status', { status: 'not_started' })
        .orderBy('c.createdAt', 'ASC')
        .take(limit)
        .getMany();
      if (!rows.length) return 0;
      const result = { status: 'completed' as const, score: 1, idScore: 1, homonymScore: 1, updatedAt: new Date() };
      for (const check of rows) Object.assign(check, result);
      await manager.getRepository(CheckEntity).update(rows.map((c) => c.id), result);
      await this.outbox.add(
        manager,
        ...rows.map((check) => ({
          topic: TOPICS.checkFinished,
          type: CHECK_EVENT_TYPES.finished,
          tenantId: check.tenantId,
          aggregateId: check.id,
          payload: { check: checkRecord(check) } satisfies CheckFinishedPayload,
        })),
      );
      return rows.length;
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current.catch(() => undefined);
  }
}
