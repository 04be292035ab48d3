import { Caller, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { AddVerificationDto, BackDto, UpdateProcessDto } from './dto/process.dto';
import { ProcessEntity, ProcessStep } from './process.entity';
import { newVerificationId, ProcessStore, toProcessStep } from './process-store';
import { ProcessErrorCode, ProcessException } from './processes.exception';

/** A step to be done again: pending, a new attempt (its next validation is a new one), nothing of the last kept. */
function restart(step: ProcessStep): void {
  step.status = 'pending';
  step.attempt = (step.attempt ?? 0) + 1;
  step.validation_id = undefined;
  step.completed_date = undefined;
  // What the end user's page recorded of the previous attempt.
  for (const field of [
    'instructions',
    'uploaded',
    'code_status',
    'attempts_left',
    'proven_value',
    'retry_of_id',
    'retry_reason',
    'retries_left',
  ] as const)
    delete step[field];
}

/** Changes to a process besides step input: device data, going back (with retry_step), dynamic steps, delete. */
@Injectable()
export class ProcessNavigationService {
  constructor(
    private readonly clock: Clock,
    private readonly store: ProcessStore,
  ) {}

  update(caller: Caller, id: string, dto: UpdateProcessDto): Promise<ProcessEntity> {
    return this.store.mutate(caller, id, true, async (m, p) => {
      if (dto.phone_number !== undefined) p.phoneNumber = dto.phone_number;
      if (dto.device_info !== undefined) p.deviceInfo = dto.device_info;
      await this.store.settle(m, p);
    });
  }

  /** POST /back: one step back; with retry_step the previous step is verified again with the same inputs. */
  back(caller: Caller, id: string, dto: BackDto): Promise<ProcessEntity> {
    return this.store.mutate(caller, id, true, async (m, p) => {
      if (p.currentStep === 0)
        throw new ProcessException(ProcessErrorCode.NoStepBack, 'the process is on its first step');
      p.currentStep -= 1;
      const step = p.steps[p.currentStep];
      // retry_step: the same verification (id and expected inputs) is verified again; otherwise a new one.
      if (dto.retry_step !== true) step.verification_id = newVerificationId();
      restart(step);
      // The steps after it are done again too, each with a validation of its own.
      for (const later of p.steps.slice(p.currentStep + 1)) if (later.status !== 'pending') restart(later);
      await this.store.settle(m, p);
    });
  }

  addVerification(caller: Caller, id: string, dto: AddVerificationDto): Promise<ProcessEntity> {
    return this.store.mutate(caller, id, true, async (m, p) => {
      const step = toProcessStep({
        step_id: `step-${p.steps.length + 1}`,
        type: dto.type,
        ...(dto.fields ? { fields: dto.fields.map((f) => ({ ...f, required: f.required ?? true })) } : {}),
      });
      step.dynamic = true;
      p.steps.push(step);
      await this.store.settle(m, p);
    });
  }

  async remove(caller: Caller, id: string): Promise<void> {
    await this.store.mutate(caller, id, false, async (m, p) => {
      p.deletedAt = this.clock.now();
      await this.store.settle(m, p);
    });
  }
}
