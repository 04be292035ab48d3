import { Clock, Job, JobQueueService } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { CollectorRegistry } from '../../collectors/collector.registry';
import { CheckDatabaseEntity } from '../check-database.entity';
import { CheckRunStore } from '../check-run.store';
import { Run, runRow, TIMER_QUEUE, TimerJob } from '../engine.types';
import { FinishedEvents } from '../finished-events';
import { FINISHED, isFinal, nextTimer, settingsOf, settleCheck, weightsOf } from '../settlement';

/**
 * Timer (`checks.timer`, a transactional job): marks databases still unanswered after their
 * expected latency `delayed` (and the check `delayed`), and at max_duration marks the rest
 * `expired`; then settles the check, or schedules its next timer: every write in one statement
 * (CheckRunStore.timer) under the check's lock.
 */
@Injectable()
export class RunCheckTimerUseCase {
  constructor(
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    private readonly registry: CollectorRegistry,
    private readonly store: CheckRunStore,
    private readonly finished: FinishedEvents,
  ) {}

  async execute(job: Job<TimerJob>, m: EntityManager): Promise<void> {
    const locked = job.tenantId ? await this.store.lockWithDatabases(m, job.payload.check_id, job.tenantId) : null;
    if (!locked || FINISHED.includes(locked.check.status) || locked.check.status === 'not_started') return;
    const { check, rows } = locked;
    const now = this.clock.now();
    const expired = !!check.deadlineAt && now >= check.deadlineAt;
    const timedOut: Run[] = [];
    const changed: CheckDatabaseEntity[] = [];
    for (const row of rows) {
      if (isFinal(row)) continue;
      let status = row.status;
      let message = row.message;
      if (expired) {
        status = 'expired';
        message = `no answer within max_duration (${settingsOf(check).maxDurationMinutes} minutes)`;
        timedOut.push({ row, outcome: 'timeout' });
      } else if (row.status === 'not_started' && row.expectedAt && row.expectedAt <= now) status = 'delayed';
      if (status === row.status) continue;
      Object.assign(row, { status, message, updatedAt: now });
      changed.push(row);
    }
    const finished = settleCheck(check, rows, now, weightsOf(this.registry, check));
    const timer = finished ? null : nextTimer(check, rows, now);
    const next = timer
      ? [
          this.jobs.row<TimerJob>(TIMER_QUEUE, timer.payload, {
            tenantId: check.tenantId,
            runAt: timer.runAt,
            dedupeKey: timer.dedupeKey,
          }),
        ]
      : [];
    await this.store.timer(m, {
      check,
      changed,
      now,
      finished,
      runs: timedOut.map((run) => runRow(run, now)),
      events: await this.finished.of(m, check, finished),
      jobs: next,
    });
    if (finished) this.finished.written(check);
  }
}
