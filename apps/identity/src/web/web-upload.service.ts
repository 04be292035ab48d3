import { Caller } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { ProcessEntity } from '../processes/process.entity';
import { ProcessStore } from '../processes/process.store';
import { ProcessErrorCode, ProcessException } from '../processes/processes.exception';
import { ValidationsClient } from '../processes/validations.client';
import { pendingSlots, UPLOAD_SLOTS, UploadSlot } from './page-state';
import { uploadRefusal, WebErrorCode, WebException } from './web.exception';

/**
 * The page's uploads: a file of the current validator step goes to the upload link of its
 * validation in the validations service (identity forwards it, so the page talks to one origin and
 * never sees another service), and the step records the slot as uploaded.
 */
@Injectable()
export class WebUploadService {
  constructor(
    @InjectRepository(ProcessEntity) private readonly processes: Repository<ProcessEntity>,
    private readonly store: ProcessStore,
    private readonly validations: ValidationsClient,
  ) {}

  async upload(caller: Caller, processId: string, slot: UploadSlot, file: string) {
    const p = await this.processes.findOneBy({ tenantId: caller.tenantId, id: processId });
    if (!p || p.deletedAt || !this.store.visibleTo(caller, p))
      throw new ProcessException(ProcessErrorCode.ProcessNotFound, `process ${processId} not found`);
    if (p.status !== 'pending')
      throw new ProcessException(ProcessErrorCode.ProcessFinished, `process ${processId} is already ${p.status}`);
    const step = p.steps[p.currentStep];
    const link = step?.instructions?.[UPLOAD_SLOTS[slot]];
    if (!step || step.status !== 'awaiting_validation' || !link || !pendingSlots(step).includes(slot))
      throw new WebException(WebErrorCode.UploadNotExpected, `the current step waits for no ${slot} file`, [
        {
          field: 'slot',
          message: `the current step waits for ${(step && pendingSlots(step).join(', ')) || 'no file'}`,
        },
      ]);
    const refused = await this.validations.upload(link, file);
    if (refused) throw uploadRefusal(refused.status, refused.message);
    return this.store.mutate(caller, processId, true, async (m, locked) => {
      const s = locked.steps.find((x) => x.step_id === step.step_id && x.verification_id === step.verification_id);
      if (s) s.uploaded = [...new Set([...(s.uploaded ?? []), slot])];
      await this.store.settle(m, locked);
    });
  }
}
