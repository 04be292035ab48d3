import { Caller, Clock, Job, JOB_COMPLETED, JobQueueService } from '@kyc/platform';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { FlowStep, VALIDATOR_STEP_TYPES } from '../flows/flow.entity';
import { FlowsService } from '../flows/flows.service';
import { StepInputDto } from './dto/process.dto';
import { attemptKey, ProcessEntity, ProcessStep } from './process.entity';
import { ProcessCodesService } from './process-codes.service';
import { CREATE_VALIDATION_QUEUE, ProcessStore, VALIDATION_TYPE_OF_STEP } from './process-store';
import { ProcessErrorCode, ProcessException } from './processes.exception';
import { StepValidations, StepValidationUnavailable } from './step-validations';
import { CreatedValidation } from './validations.client';

interface CreateValidationJob {
  process_id: string;
  step_id: string;
}

/**
 * Step input (POST /v1/processes/{id}) and validator steps: the validation a validator step needs is
 * created by a durable job; its `validations.validation.finished` event moves the step on.
 */
@Injectable()
export class ProcessStepsService implements OnModuleInit {
  private readonly logger = new Logger('processes');

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    private readonly flows: FlowsService,
    private readonly stepValidations: StepValidations,
    private readonly codes: ProcessCodesService,
    private readonly store: ProcessStore,
  ) {}

  onModuleInit(): void {
    this.jobs.register<CreateValidationJob>(CREATE_VALIDATION_QUEUE, (job, m) => this.createValidation(job, m), {
      concurrency: 4,
    });
  }

  /**
   * POST /v1/processes/{id}: validates the current step's input and advances the process; the code of
   * an e-mail or phone step goes to its validation (ProcessCodesService).
   */
  async submitStep(caller: Caller, id: string, dto: StepInputDto): Promise<ProcessEntity> {
    if (await this.codes.isCode(caller, id, dto)) return this.codes.submit(caller, id, dto);
    return this.store.mutate(caller, id, true, async (m, p) => {
      const step = p.steps[p.currentStep];
      if (!step || step.status !== 'pending')
        throw new ProcessException(ProcessErrorCode.WrongStep, 'the process has no step waiting for input');
      const mismatch = (['step_id', 'verification_id', 'type'] as const).filter((f) => dto[f] !== step[f]);
      if (mismatch.length)
        throw new ProcessException(
          ProcessErrorCode.WrongStep,
          `the input is not for the current step ${step.step_id}`,
          mismatch.map((field) => ({ field, message: `${field} must be ${step[field]}` })),
        );
      const given = new Map((dto.expected_inputs ?? []).map((i) => [i.name, i.value]));
      const unknown = [...given.keys()].filter((k) => !step.expected_inputs.includes(k));
      const flow = await this.flows.get(p.tenantId, p.flowId).catch(() => null);
      const required = step.type === 'form' ? requiredFields(flow?.steps, step) : step.expected_inputs;
      const missing = required.filter((k) => !given.get(k)?.trim());
      if (unknown.length || missing.length)
        throw new ProcessException(ProcessErrorCode.WrongStep, 'the expected inputs do not match the step', [
          ...missing.map((k) => ({ field: `expected_inputs.${k}`, message: `${k} is required` })),
          ...unknown.map((k) => ({ field: `expected_inputs.${k}`, message: `${k} is not an input of this step` })),
        ]);
      const invalid = invalidStepInputs(step, given);
      if (invalid.length)
        throw new ProcessException(ProcessErrorCode.WrongStep, 'the expected inputs do not match the step', invalid);
      for (const [k, v] of given) p.variables[k] = v.trim();
      if (VALIDATOR_STEP_TYPES.includes(step.type)) {
        step.status = 'awaiting_validation';
        if (VALIDATION_TYPE_OF_STEP[step.type]) await this.enqueueValidation(m, p, step);
      } else {
        step.status = 'success';
        step.completed_date = this.clock.now().toISOString();
        p.currentStep += 1;
      }
      await this.store.settle(m, p);
    });
  }

  /**
   * A validation of a validator step of a process of `tenantId` finished (validations.validation.finished):
   * success moves the process on; a failure a new photo may fix, with a retry its settings allow, sends
   * the step back to capture (a new validation retrying this one); any other failure fails the process.
   */
  async onValidationFinished(
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
      await this.enqueueValidation(m, p, step);
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

  /** Records the validation a validator step created, so its finish event finds the step. */
  attachValidation(caller: Caller, id: string, stepId: string, validationId: string): Promise<ProcessEntity> {
    return this.store.mutate(caller, id, true, async (m, p) => {
      const step = p.steps.find((s) => s.step_id === stepId);
      if (!step) throw new ProcessException(ProcessErrorCode.WrongStep, `no step ${stepId}`);
      step.validation_id = validationId;
      await this.store.settle(m, p);
    });
  }

  /** The job that creates the step's validation (once per attempt), in the caller's transaction. */
  private enqueueValidation(m: EntityManager, p: ProcessEntity, step: ProcessStep) {
    return this.jobs.enqueue<CreateValidationJob>(
      m,
      CREATE_VALIDATION_QUEUE,
      { process_id: p.id, step_id: step.step_id },
      { tenantId: p.tenantId, dedupeKey: `create-validation:${attemptKey(p, step)}` },
    );
  }

  /**
   * Job: creates the validation of an awaiting validator step in the validations service (outside
   * any transaction; idempotent by the step's verification id), then records it on the step.
   */
  private async createValidation(job: Job<CreateValidationJob>, manager: EntityManager) {
    const p = await manager.findOneBy(ProcessEntity, { id: job.payload.process_id });
    const step = p?.steps.find((s) => s.step_id === job.payload.step_id);
    const type = step && VALIDATION_TYPE_OF_STEP[step.type];
    if (!p || !step || !type || p.status !== 'pending' || step.status !== 'awaiting_validation' || step.validation_id)
      return;
    const flow = await this.flows.get(p.tenantId, p.flowId).catch(() => null);
    const settings = flow?.steps.find((s) => s.step_id === step.step_id)?.validator_settings;
    let created: CreatedValidation | undefined;
    let unavailable: StepValidationUnavailable | undefined;
    try {
      created = await this.stepValidations.create(p, step, settings);
    } catch (err) {
      if (!(err instanceof StepValidationUnavailable)) throw err;
      unavailable = err;
      this.logger.warn({
        msg: 'step validation unavailable',
        process_id: p.id,
        reason: err.reason,
        detail: err.detail,
      });
    }
    await this.dataSource.transaction(async (m) => {
      const locked = await m.findOne(ProcessEntity, { where: { id: p.id }, lock: { mode: 'pessimistic_write' } });
      const s = locked?.steps.find((x) => x.step_id === step.step_id);
      if (locked && s && locked.status === 'pending' && s.status === 'awaiting_validation') {
        if (created) {
          s.validation_id = created.validation_id;
          if (created.instructions) s.instructions = created.instructions;
        } else if (s.retry_of_id && unavailable?.reason === 'validation_refused') {
          // The retry was refused (its window, retry_ttl, passed meanwhile): the failure stands.
          s.status = 'failure';
          s.declined_reason = s.retry_reason;
          this.store.fail(locked, 'declined', s.retry_reason);
        } else if (unavailable?.reason === 'document_face_not_detected') {
          s.status = 'failure';
          s.declined_reason = unavailable.reason;
          this.store.fail(locked, 'declined', unavailable.reason);
        } else {
          s.status = 'failure';
          this.store.fail(locked, 'system_error', 'validation_refused');
        }
        await this.store.settle(m, locked);
      }
      await this.jobs.complete(m, job);
    });
    return JOB_COMPLETED;
  }
}

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

function requiredFields(flowSteps: FlowStep[] | undefined, step: ProcessStep): string[] {
  const def = flowSteps?.find((s) => s.step_id === step.step_id);
  return def?.fields?.filter((f) => f.required).map((f) => f.name) ?? [];
}

/** Countries whose numbers the validations service's phone provider serves (by calling code). */
export const PHONE_CALLING_CODES = ['+593', '+57', '+56', '+52', '+55', '+58', '+51', '+54', '+1'];
const E164 = /^\+[1-9]\d{7,14}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const DOCUMENT_COUNTRIES = ['CO', 'CL', 'MX', 'PE', 'BR', 'CR', 'SV', 'ALL'];
const DOCUMENT_TYPES = [
  'national-id',
  'foreign-id',
  'driver-license',
  'passport',
  'identity-card',
  'rut',
  'ppt',
  'cnh',
];

/**
 * The e-mail step's address, the phone step's number (E.164, a country the phone provider serves) and
 * the document step's country and type (those the validations service reads; ALL for passports only).
 */
function invalidStepInputs(step: ProcessStep, given: Map<string, string>) {
  const errors: { field: string; message: string }[] = [];
  if (step.type === 'document') {
    const country = given.get('country')?.trim();
    const type = given.get('document_type')?.trim();
    if (country !== undefined && !DOCUMENT_COUNTRIES.includes(country))
      errors.push({
        field: 'expected_inputs.country',
        message: `country must be one of ${DOCUMENT_COUNTRIES.join(', ')}`,
      });
    if (type !== undefined && !DOCUMENT_TYPES.includes(type))
      errors.push({
        field: 'expected_inputs.document_type',
        message: `document_type must be one of ${DOCUMENT_TYPES.join(', ')}`,
      });
    else if (country === 'ALL' && type !== 'passport')
      errors.push({ field: 'expected_inputs.country', message: 'country ALL is only for document_type passport' });
  }
  const email = given.get('email')?.trim();
  if (step.type === 'email' && email !== undefined && (!EMAIL.test(email) || email.length > 254))
    errors.push({ field: 'expected_inputs.email', message: 'email must be an e-mail address' });
  const phone = given.get('phone_number')?.trim();
  if (step.type === 'phone' && phone !== undefined) {
    if (!E164.test(phone))
      errors.push({
        field: 'expected_inputs.phone_number',
        message: 'phone_number must be E.164 (+ and 8 to 15 digits)',
      });
    else if (!PHONE_CALLING_CODES.some((c) => phone.startsWith(c)))
      errors.push({
        field: 'expected_inputs.phone_number',
        message: 'phone_number must be of CO, CL, MX, BR, VE, PE, EC, AR or US (the countries codes are sent to)',
      });
  }
  return errors;
}
