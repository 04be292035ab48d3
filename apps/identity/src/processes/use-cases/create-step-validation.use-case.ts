import { Job, JOB_COMPLETED, JobQueueService } from '@kyc/platform';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { FlowsService } from '../../flows/flows.service';
import { ProcessEntity } from '../process.entity';
import { CreateValidationJob, ProcessStore, VALIDATION_TYPE_OF_STEP } from '../process.store';
import { StepValidations, StepValidationUnavailable } from '../step-validations';
import { CreatedValidation } from '../validations.client';

/**
 * The job (`identity.create-validation`, ProcessesWorker) that creates the validation of an awaiting
 * validator step in the validations service (outside any transaction; idempotent by the step's
 * verification id), then records it on the step; a step that cannot get one fails the process.
 */
@Injectable()
export class CreateStepValidationUseCase {
  private readonly logger = new Logger('processes');

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueueService,
    private readonly flows: FlowsService,
    private readonly stepValidations: StepValidations,
    private readonly store: ProcessStore,
  ) {}

  async execute(job: Job<CreateValidationJob>, manager: EntityManager) {
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
