import { Caller } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { BackDto } from '../dto/process.dto';
import { ProcessEntity, ProcessStep } from '../process.entity';
import { newVerificationId, ProcessStore } from '../process.store';
import { ProcessErrorCode, ProcessException } from '../processes.exception';

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

/** POST /v1/processes/{id}/back: one step back; with retry_step the previous step is verified again with the same inputs. */
@Injectable()
export class StepBackUseCase {
  constructor(private readonly store: ProcessStore) {}

  execute(caller: Caller, id: string, dto: BackDto): Promise<ProcessEntity> {
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
}
