import { Caller } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { AddVerificationDto } from '../dto/process.dto';
import { ProcessEntity } from '../process.entity';
import { ProcessStore, toProcessStep } from '../process.store';

/** POST /v1/processes/{id}/verifications: a dynamic step added at the end of a pending process. */
@Injectable()
export class AddVerificationUseCase {
  constructor(private readonly store: ProcessStore) {}

  execute(caller: Caller, id: string, dto: AddVerificationDto): Promise<ProcessEntity> {
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
}
