import { CheckFinishedPayload } from '@kyc/contracts';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { PassUserEntity } from '../users/pass-user.entity';

/** Inputs of a check that carry the person's document number. */
const DOCUMENT_INPUTS = ['national_id', 'document_number', 'foreign_id', 'passport'];

/**
 * The claim store: applies the events of the services that verify people to pass's users.
 * Here: `checks.check.finished` (background claims); the identity and validations events are applied by
 * IdentityClaimsService. PUT /v1/admin/users seeds a person directly (the stack's demo user).
 */
@Injectable()
export class ClaimStoreService {
  /** Records a finished check as the latest background result of the people with its document number. */
  async applyCheckFinished(manager: EntityManager, payload: CheckFinishedPayload): Promise<number> {
    const check = payload.check;
    const documentNumber = DOCUMENT_INPUTS.map((k) => check.inputs?.[k]).find((v) => typeof v === 'string' && v);
    if (!documentNumber) return 0;
    const result = await manager
      .createQueryBuilder()
      .update(PassUserEntity)
      .set({
        background: {
          check_id: check.check_id,
          status: check.status,
          score: check.score,
          updated_at: check.update_date,
        },
        updatedAt: () => 'now()',
      })
      .where(`identity->>'document_number' = :documentNumber`, { documentNumber })
      .andWhere(`(background->>'updated_at' IS NULL OR background->>'updated_at' <= :updatedAt)`, {
        updatedAt: check.update_date,
      })
      .execute();
    return result.affected ?? 0;
  }
}
