import { Clock, JobQueueService } from '@kyc/platform';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { ProcessEntity } from './process.entity';
import { PROCESS_TIMEOUT_QUEUE, ProcessStore, TIMEOUT_GRACE_MS, TIMEOUT_MAX_GRACES, TimeoutJob } from './process-store';

/** The durable timer: at the deadline a pending process fails, unless a validation is unfinished (grace). */
@Injectable()
export class ProcessTimeoutService implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    private readonly store: ProcessStore,
  ) {}

  onModuleInit(): void {
    this.jobs.register<TimeoutJob>(PROCESS_TIMEOUT_QUEUE, (job, m) => this.onTimeout(m, job.payload), {
      transactional: true,
    });
  }

  private async onTimeout(m: EntityManager, job: TimeoutJob): Promise<void> {
    const p = await m.findOne(ProcessEntity, { where: { id: job.process_id }, lock: { mode: 'pessimistic_write' } });
    if (!p || p.status !== 'pending' || p.deletedAt || p.timeoutAttempts !== job.attempt) return;
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
