import { JobQueueService, JobRow, preparedQuery, writeQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { PROCESSED_WEBHOOK_SQL, receiveWebhookSql } from './webhook-event.sql';

/** The received provider webhooks (webhook_events): recorded with their processing job, marked when processed. */
@Injectable()
export class WebhookEventStore {
  private readonly receiveText: string;

  constructor(
    private readonly dataSource: DataSource,
    jobs: JobQueueService,
  ) {
    this.receiveText = receiveWebhookSql(jobs);
  }

  /**
   * Records a received webhook with its job, by one statement: until it is processed, campaigns do
   * not re-send an in-doubt claim it may confirm. A redelivered webhook adds neither (same digest,
   * same dedupe key).
   */
  async received(digest: string, at: Date, job: JobRow): Promise<void> {
    await writeQuery(this.dataSource, this.receiveText, [digest, at, JSON.stringify([job])]);
  }

  /** Marks a webhook processed, in the processing transaction. */
  async processed(m: EntityManager, digest: string, at: Date): Promise<void> {
    await preparedQuery(this.dataSource, 'engagement:webhook-processed', PROCESSED_WEBHOOK_SQL, [digest, at], m);
  }
}
