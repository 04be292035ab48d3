import { Caller, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { VALIDATOR_STEP_TYPES } from '../../flows/flow.entity';
import { FlowsService } from '../../flows/flows.service';
import { StepInputDto } from '../dto/process.dto';
import { ProcessEntity } from '../process.entity';
import { ProcessStore, VALIDATION_TYPE_OF_STEP } from '../process.store';
import { ProcessErrorCode, ProcessException } from '../processes.exception';
import { awaitsCode, invalidStepInputs, requiredFields, requireInputFor } from '../step-inputs';
import { SubmitCodeUseCase } from './submit-code.use-case';

/**
 * POST /v1/processes/{id}: validates the current step's input and advances the process; a validator
 * step waits for its validation, created by a durable job (CreateStepValidationUseCase), whose
 * `validations.validation.finished` event moves it on (RecordValidationOutcomeUseCase). The code of
 * an e-mail or phone step goes to its validation (SubmitCodeUseCase).
 */
@Injectable()
export class SubmitStepUseCase {
  constructor(
    @InjectRepository(ProcessEntity) private readonly processes: Repository<ProcessEntity>,
    private readonly clock: Clock,
    private readonly flows: FlowsService,
    private readonly submitCode: SubmitCodeUseCase,
    private readonly store: ProcessStore,
  ) {}

  async execute(caller: Caller, id: string, dto: StepInputDto): Promise<ProcessEntity> {
    if (await this.isCode(caller, id, dto)) return this.submitCode.execute(caller, id, dto);
    return this.store.mutate(caller, id, true, async (m, p) => {
      const step = p.steps[p.currentStep];
      if (!step || step.status !== 'pending')
        throw new ProcessException(ProcessErrorCode.WrongStep, 'the process has no step waiting for input');
      requireInputFor(step, dto);
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
        if (VALIDATION_TYPE_OF_STEP[step.type]) await this.store.enqueueValidation(m, p, step);
      } else {
        step.status = 'success';
        step.completed_date = this.clock.now().toISOString();
        p.currentStep += 1;
      }
      await this.store.settle(m, p);
    });
  }

  /** Whether this input is the code of the process's current step (read without a lock). */
  private async isCode(caller: Caller, id: string, dto: StepInputDto): Promise<boolean> {
    if (!dto.expected_inputs?.some((i) => i.name === 'code')) return false;
    const p = await this.processes.findOneBy({ tenantId: caller.tenantId, id });
    return !!p && p.status === 'pending' && awaitsCode(p.steps[p.currentStep]);
  }
}
