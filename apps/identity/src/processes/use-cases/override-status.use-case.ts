import { Caller, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { OverrideStatusDto } from '../dto/process.dto';
import { ProcessEntity } from '../process.entity';
import { ProcessStore } from '../process.store';
import { ProcessErrorCode, ProcessException } from '../processes.exception';

/** POST /v1/processes/{id}/override-status: an authorized user changes the final status; the history keeps every change. */
@Injectable()
export class OverrideStatusUseCase {
  constructor(
    private readonly clock: Clock,
    private readonly store: ProcessStore,
  ) {}

  execute(caller: Caller, id: string, dto: OverrideStatusDto): Promise<ProcessEntity> {
    return this.store.mutate(caller, id, false, async (m, p) => {
      if (p.status === 'pending')
        throw new ProcessException(ProcessErrorCode.ProcessNotFinished, 'only a finished process can be overridden');
      p.overrideStatusHistory.push({
        override_status: dto.override_status,
        previous: p.overrideStatus,
        user_id: caller.userId,
        ...(dto.reason ? { reason: dto.reason } : {}),
        date: this.clock.now().toISOString(),
      });
      p.overrideStatus = dto.override_status;
      await this.store.settle(m, p);
    });
  }
}
