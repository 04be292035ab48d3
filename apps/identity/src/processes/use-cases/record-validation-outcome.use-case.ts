import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { ProcessEntity, ProcessStep } from '../process.entity';
import { ProcessStore } from '../process.store';

/** What a validations.validation.finished event says of the validation. */
export interface ValidationOutcome {
  status: string;
  declined_reason?: string;
  expired_reason?: string;
  failure_reason?: string;
  enrolled_value?: string;
  /** Failed document and face validations: retries left and until when (validator settings). */
  retries_left?: number;
  retry_until?: string;
}

/**
 * Why a document or face validation fails that a new photo may fix (the engine could not read it, or the
 * face did not match or did not look live); a document found expired, altered, in no registry or a face
 * in a blocklist is no matter of a new photo and fails the process.
 */
export const RETAKE_REASONS = [
  'mrz_not_found',
  'invalid_mrz_check_digit',
  'invalid_document_number',
  'unreadable_document',
  'photo_of_photo',
  'photocopy',
  'face_not_detected',
  'similarity_threshold_not_passed',
  'passive_liveness_failed',
  'speech_not_matched',
  'invalid_media',
];

/**
 * A validation of a validator step of a process of `tenantId` finished (validations.validation.finished,
 * ValidationFinishedConsumer, in the inbox's transaction): success moves the process on; a failure a
 * new photo may fix, with a retry its settings allow, sends the step back to capture (a new
 * validation retrying this one); any other failure fails the process.
 */
@Injectable()
export class RecordValidationOutcomeUseCase {
  constructor(
    private readonly clock: Clock,
    private readonly store: ProcessStore,
  ) {}

  async execute(
    m: EntityManager,
    tenantId: string,
    processId: string,
    validationId: string,
    outcome: ValidationOutcome,
  ): Promise<void> {
    const p = await m.findOne(ProcessEntity, {
      where: { id: processId, tenantId },
      lock: { mode: 'pessimistic_write' },
    });
    if (!p || p.status !== 'pending' || p.deletedAt) return;
    const step = p.steps.find((s) => s.validation_id === validationId && s.status === 'awaiting_validation');
    if (!step) return;
    if (outcome.status !== 'success' && retriesStep(step, outcome, this.clock.now())) {
      step.retry_of_id = validationId;
      step.retry_reason = outcome.declined_reason ?? outcome.failure_reason;
      step.retries_left = outcome.retries_left! - 1;
      step.attempt = (step.attempt ?? 0) + 1;
      step.validation_id = undefined;
      delete step.instructions;
      delete step.uploaded;
      await this.store.enqueueValidation(m, p, step);
      await this.store.settle(m, p);
      return;
    }
    step.completed_date = this.clock.now().toISOString();
    if (outcome.status === 'success') {
      step.status = 'success';
      if ((step.type === 'email' || step.type === 'phone') && outcome.enrolled_value)
        step.proven_value = outcome.enrolled_value;
      p.currentStep = Math.max(p.currentStep, p.steps.indexOf(step) + 1);
    } else {
      step.status = 'failure';
      step.declined_reason = outcome.declined_reason;
      step.expired_reason = outcome.expired_reason;
      this.store.fail(
        p,
        outcome.expired_reason ? 'expired' : 'declined',
        outcome.declined_reason,
        outcome.expired_reason,
      );
    }
    await this.store.settle(m, p);
  }
}

/** A failed document or face validation is retried: a reason a new photo may fix, retries left, in time. */
function retriesStep(step: ProcessStep, outcome: ValidationOutcome, now: Date): boolean {
  const reason = outcome.declined_reason ?? outcome.failure_reason;
  return (
    (step.type === 'document' || step.type === 'face') &&
    !outcome.expired_reason &&
    !!reason &&
    RETAKE_REASONS.includes(reason) &&
    (outcome.retries_left ?? 0) > 0 &&
    !!outcome.retry_until &&
    Date.parse(outcome.retry_until) > now.getTime()
  );
}
