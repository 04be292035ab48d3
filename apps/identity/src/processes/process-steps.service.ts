import { Caller, Clock, Job, JOB_COMPLETED, JobQueueService } from '@kyc/platform';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { FlowStep, VALIDATOR_STEP_TYPES } from '../flows/flow.entity';
import { FlowsService } from '../flows/flows.service';
import { StepInputDto } from './dto/process.dto';
import { ProcessEntity, ProcessStep } from './process.entity';
import { CREATE_VALIDATION_QUEUE, ProcessStore, VALIDATION_TYPE_OF_STEP } from './process-store';
import { ProcessErrorCode, ProcessException } from './processes.exception';
import { CreatedValidation, ValidationRefused, ValidationsClient } from './validations.client';

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
    private readonly validations: ValidationsClient,
    private readonly store: ProcessStore,
  ) {}

  onModuleInit(): void {
    this.jobs.register<CreateValidationJob>(CREATE_VALIDATION_QUEUE, (job, m) => this.createValidation(job, m), {
      concurrency: 4,
    });
  }

  /** POST /v1/processes/{id}: validates the current step's input and advances the process. */
  submitStep(caller: Caller, id: string, dto: StepInputDto): Promise<ProcessEntity> {
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
      for (const [k, v] of given) p.variables[k] = v.trim();
      if (VALIDATOR_STEP_TYPES.includes(step.type)) {
        step.status = 'awaiting_validation';
        if (VALIDATION_TYPE_OF_STEP[step.type])
          await this.jobs.enqueue<CreateValidationJob>(
            m,
            CREATE_VALIDATION_QUEUE,
            { process_id: p.id, step_id: step.step_id },
            { tenantId: p.tenantId, dedupeKey: `create-validation:${p.id}:${step.verification_id}` },
          );
      } else {
        step.status = 'success';
        step.completed_date = this.clock.now().toISOString();
        p.currentStep += 1;
      }
      await this.store.settle(m, p);
    });
  }

  /** A validation of a validator step finished (validations.validation.finished). */
  async onValidationFinished(
    m: EntityManager,
    processId: string,
    validationId: string,
    outcome: { status: string; declined_reason?: string; expired_reason?: string },
  ): Promise<void> {
    const p = await m.findOne(ProcessEntity, { where: { id: processId }, lock: { mode: 'pessimistic_write' } });
    if (!p || p.status !== 'pending' || p.deletedAt) return;
    const step = p.steps.find((s) => s.validation_id === validationId && s.status === 'awaiting_validation');
    if (!step) return;
    step.completed_date = this.clock.now().toISOString();
    if (outcome.status === 'success') {
      step.status = 'success';
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
    try {
      created = await this.validations.create(p.tenantId, p.userId, `${p.id}:${step.verification_id}`, {
        type,
        user_authorized: true,
        account_id: p.accountId,
        ...(type === 'document-validation'
          ? { country: p.variables.country ?? 'ALL', document_type: p.variables.document_type ?? 'national-id' }
          : {}),
        process_id: p.id,
        flow_id: p.flowId,
        ...(settings ? { validator_settings: settings } : {}),
      });
    } catch (err) {
      if (!(err instanceof ValidationRefused)) throw err;
      this.logger.warn({ msg: 'validation refused', process_id: p.id, status: err.status, body: err.body });
    }
    await this.dataSource.transaction(async (m) => {
      const locked = await m.findOne(ProcessEntity, { where: { id: p.id }, lock: { mode: 'pessimistic_write' } });
      const s = locked?.steps.find((x) => x.step_id === step.step_id);
      if (locked && s && locked.status === 'pending' && s.status === 'awaiting_validation') {
        if (created) {
          s.validation_id = created.validation_id;
          if (created.instructions) s.instructions = created.instructions;
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

function requiredFields(flowSteps: FlowStep[] | undefined, step: ProcessStep): string[] {
  const def = flowSteps?.find((s) => s.step_id === step.step_id);
  return def?.fields?.filter((f) => f.required).map((f) => f.name) ?? [];
}
