import { Caller, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { ProcessStore } from '../process.store';

/** DELETE /v1/processes/{id}: the process is marked deleted, hidden from reads. */
@Injectable()
export class DeleteProcessUseCase {
  constructor(
    private readonly clock: Clock,
    private readonly store: ProcessStore,
  ) {}

  async execute(caller: Caller, id: string): Promise<void> {
    await this.store.mutate(caller, id, false, async (m, p) => {
      p.deletedAt = this.clock.now();
      await this.store.settle(m, p);
    });
  }
}
