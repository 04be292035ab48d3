import type { CheckFinishedPayload, EventEnvelope } from '@kyc/contracts';
import { TOPICS } from '@kyc/contracts';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { FinishedCheckEntity } from './finished-check.entity';

/** Reads the finished checks account has recorded (the rules engine's input), always within one tenant. */
@Injectable()
export class FinishedChecksService {
  constructor(@InjectRepository(FinishedCheckEntity) private readonly finished: Repository<FinishedCheckEntity>) {}

  /**
   * The `checks.check.finished` event of the tenant's check as account received it (the latest,
   * when a check finished more than once), or null when the tenant has no such finished check.
   */
  async latestEvent(tenantId: string, checkId: string): Promise<EventEnvelope<CheckFinishedPayload> | null> {
    const row = await this.finished.findOne({
      where: { tenantId, checkId },
      order: { receivedAt: 'DESC', eventId: 'ASC' },
    });
    if (!row) return null;
    return {
      id: row.eventId,
      type: TOPICS.checkFinished,
      version: 1,
      tenant_id: row.tenantId,
      occurred_at: row.receivedAt.toISOString(),
      aggregate_id: row.checkId,
      payload: row.payload as CheckFinishedPayload,
    };
  }
}
