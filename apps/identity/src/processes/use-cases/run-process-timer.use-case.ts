import { Clock, Job } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { ProcessEntity } from '../process.entity';
import { ProcessStore, TIMEOUT_GRACE_MS, TIMEOUT_MAX_GRACES, TimeoutJob } from '../process.store';

/**
 * The durable timer (`identity.process-timeout`, a transactional job of ProcessesWorker): at the
 * deadline a pending process fails, unless a validation is unfinished (grace).
 */
@Injectable()
export class RunProcessTimerUseCase {
  constructor(
    private readonly clock: Clock,
    private readonly store: ProcessStore,
  ) {}

  async execute(job: Job<TimeoutJob>, m: EntityManager): Promise<void> {
    const p = await m.findOne(ProcessEntity, {
      where: { id: job.payload.process_id },
      lock: { mode: 'pessimistic_write' },
    });
    if (!p || p.status !== 'pending' || p.deletedAt || p.timeoutAttempts !== job.payload.attempt) return;
    const waiting = p.steps.some((s) => s.status === 'awaiting_validation');
    if (waiting && p.timeoutAttempts < TIMEOUT_MAX_GRACES) {
      p.timeoutAttempts += 1;
      p.deadline = new Date(this.clock.now().getTime() + TIMEOUT_GRACE_MS);
      await this.store.scheduleTimeout(m, p, p.timeoutAttempts);
    } else {
      this.store.fail(p, 'expired', undefined, waiting ? 'validation_not_finished' : 'process_timeout');
    }
    await this.store.settle(m, p);
  }
}
