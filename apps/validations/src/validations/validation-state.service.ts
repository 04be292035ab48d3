import type {
  DeclinedReason,
  ExpiredReason,
  FailureReason,
  ManualReviewStatus,
  ValidationFinishedPayload,
} from '@kyc/contracts';
import { TOPICS, VALIDATION_EVENT_TYPES } from '@kyc/contracts';
import { Clock, Job, JobQueueService, OutboxService } from '@kyc/platform';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { ValidatorAccountEntity } from '../accounts/validator-account.entity';
import { EnrollmentEntity } from '../enrollments/enrollment.entity';
import { EnrollmentsService } from '../enrollments/enrollments.service';
import { ValidationEntity, ValidationOutcome } from './validation.entity';
import { validationRecord } from './validation.presenter';

export const TIMEOUT_QUEUE = 'validations.timeout';

export type Ending =
  | { status: 'success'; outcome?: ValidationOutcome; manualReviewStatus?: ManualReviewStatus }
  | { status: 'declined'; reason: DeclinedReason; outcome?: ValidationOutcome; manualReviewStatus?: ManualReviewStatus }
  | { status: 'expired'; reason: ExpiredReason }
  | { status: 'system_error'; reason: FailureReason };

/**
 * The end of a validation: pending -> success | failure (declined, expired or system_error), in the
 * caller's transaction, with validations.validation.finished in the outbox and, on success, the
 * enrollment it confirms. Also the durable timeout (a job at the validation's expiry).
 */
@Injectable()
export class ValidationStateService implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly jobs: JobQueueService,
    private readonly enrollments: EnrollmentsService,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.jobs.register<{ validation_id: string }>(TIMEOUT_QUEUE, (job, m) => this.expire(job, m), {
      transactional: true,
      concurrency: 2,
    });
  }

  /** Schedules the timeout in the creating transaction. */
  scheduleTimeout(m: EntityManager, v: ValidationEntity): Promise<unknown> {
    return this.jobs.enqueue(
      m,
      TIMEOUT_QUEUE,
      { validation_id: v.id },
      { tenantId: v.tenantId, runAt: v.expiresAt, dedupeKey: `timeout:${v.id}`, maxAttempts: 10 },
    );
  }

  /** Locks a validation for a state change (null when gone). */
  lock(m: EntityManager, id: string, tenantId?: string): Promise<ValidationEntity | null> {
    const qb = m
      .getRepository(ValidationEntity)
      .createQueryBuilder('v')
      .setLock('pessimistic_write')
      .where('v.id = :id', { id });
    if (tenantId) qb.andWhere('v.tenantId = :tenantId', { tenantId });
    return qb.getOne();
  }

  async finish(m: EntityManager, v: ValidationEntity, ending: Ending): Promise<void> {
    const now = this.clock.now();
    const patch: Partial<ValidationEntity> = {
      status: ending.status === 'success' ? 'success' : 'failure',
      failureStatus: ending.status === 'success' ? null : ending.status,
      declinedReason: ending.status === 'declined' ? ending.reason : null,
      expiredReason: ending.status === 'expired' ? ending.reason : null,
      failureReason: ending.status === 'system_error' ? ending.reason : null,
      updatedAt: now,
      finishedAt: now,
    };
    if ('outcome' in ending && ending.outcome) patch.outcome = ending.outcome;
    if ('manualReviewStatus' in ending && ending.manualReviewStatus)
      patch.manualReviewStatus = ending.manualReviewStatus;
    Object.assign(v, patch);
    await m.getRepository(ValidationEntity).update({ id: v.id }, patch);
    const enrollment = v.enrollmentId
      ? await m.getRepository(EnrollmentEntity).findOneBy({ id: v.enrollmentId })
      : null;
    await this.outbox.add(m, {
      topic: TOPICS.validationFinished,
      type: VALIDATION_EVENT_TYPES.validationFinished,
      tenantId: v.tenantId,
      aggregateId: v.id,
      payload: {
        validation: validationRecord(
          v,
          await m.getRepository(ValidatorAccountEntity).findOneBy({ tenantId: v.tenantId, accountId: v.accountId }),
          enrollment,
        ),
        subvalidations: (v.outcome?.subvalidations ?? []).map(({ name, status, reason }) => ({
          name,
          status,
          ...(reason ? { reason } : {}),
        })),
      } satisfies ValidationFinishedPayload,
    });
    if (v.status === 'success' && enrollment) {
      if (enrollment.status === 'pending') await this.enrollments.finish(m, enrollment, 'success', null, v.id);
    }
  }

  /** Timeout job: a validation still waiting for its media, its code or its review expires. */
  private async expire(job: Job<{ validation_id: string }>, m: EntityManager): Promise<void> {
    const v = await this.lock(m, job.payload.validation_id);
    if (!v || v.status !== 'pending' || v.deletedAt) return;
    if (v.expiresAt.getTime() > this.clock.now().getTime()) {
      // Not due by this clock yet (jobs run by the same clock; kept for safety): run again at expiry.
      await this.jobs.enqueue(m, TIMEOUT_QUEUE, { validation_id: v.id }, { tenantId: v.tenantId, runAt: v.expiresAt });
      return;
    }
    const otp = v.type === 'email-verification' || v.type === 'phone-verification';
    let reason: ExpiredReason;
    if (otp) reason = 'token_not_submitted';
    else if (!v.mediaCompleteAt) reason = 'media_not_uploaded';
    else if (v.manualReviewStatus === 'pending') reason = 'manual_review_not_finished';
    else return; // its media are in and the engine is on it: the engine's result ends it
    await this.finish(m, v, { status: 'expired', reason });
  }

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
