import { CheckCreatedPayload, CheckFinishedPayload, CheckRecord } from '@kyc/contracts';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { ClaimProvenance } from '../users/claim-provenance';
import { PassUserEntity } from '../users/pass-user.entity';

/** Inputs of a check that carry the person's document number. */
const DOCUMENT_INPUTS = ['national_id', 'document_number', 'foreign_id', 'passport'];

/** Check statuses after which a check does not change any more. */
export const FINISHED_CHECK_STATUSES = ['completed', 'error'];

/**
 * The claim store: applies the events of the services that verify people to pass's users.
 * Here: `checks.check.created` and `checks.check.finished` (background claims); the identity and validations events are applied by
 * IdentityClaimsService. PUT /v1/admin/users seeds a person directly (the stack's demo user).
 */
@Injectable()
export class ClaimStoreService {
  /**
   * Records a finished check as the latest background result of the people with its document number, with its
   * provenance (tenant, check), when its tenant is the one that proved the person's identity; another tenant's
   * check is left out.
   */
  applyCheckFinished(manager: EntityManager, payload: CheckFinishedPayload): Promise<number> {
    return this.record(manager, payload.check, false);
  }

  /**
   * Records a new check as the person's in-progress background check (userinfo waits for it to finish), unless
   * that check already finished (the two topics are not ordered with each other).
   */
  applyCheckCreated(manager: EntityManager, payload: CheckCreatedPayload): Promise<number> {
    return this.record(manager, payload.check, true);
  }

  private async record(manager: EntityManager, check: CheckRecord, created: boolean): Promise<number> {
    const documentNumber = DOCUMENT_INPUTS.map((k) => check.inputs?.[k]).find((v) => typeof v === 'string' && v);
    if (!documentNumber) return 0;
    const provenance: ClaimProvenance = {
      source: 'checks',
      tenant_id: check.tenant_id,
      check_id: check.check_id,
      method: 'background_check',
      verified_at: check.update_date,
    };
    const query = manager
      .createQueryBuilder()
      .update(PassUserEntity)
      .set({
        background: {
          check_id: check.check_id,
          status: check.status,
          score: check.score,
          updated_at: check.update_date,
        },
        provenance: () => `jsonb_set(provenance, '{background}', CAST(:provenance AS jsonb))`,
        updatedAt: () => 'now()',
      })
      .setParameter('provenance', JSON.stringify(provenance))
      .where(`identity->>'document_number' = :documentNumber`, { documentNumber })
      // only the tenant whose process proved the person's identity speaks for her background (whatever order the
      // checks arrive in); a person without a tenant-proven identity (seeded, legacy) keeps the first tenant's
      .andWhere(
        `(CASE WHEN provenance->'identity'->>'tenant_id' IS NOT NULL
           THEN provenance->'identity'->>'tenant_id' = :tenantId
           ELSE provenance->'background'->>'tenant_id' IS NULL OR provenance->'background'->>'tenant_id' = :tenantId
         END)`,
        { tenantId: check.tenant_id },
      )
      .andWhere(`(background->>'updated_at' IS NULL OR background->>'updated_at' <= :updatedAt)`, {
        updatedAt: check.update_date,
      });
    if (created)
      query.andWhere(`(background->>'check_id' IS DISTINCT FROM :checkId OR background->>'status' <> ALL(:finished))`, {
        checkId: check.check_id,
        finished: FINISHED_CHECK_STATUSES,
      });
    const result = await query.execute();
    return result.affected ?? 0;
  }
}
