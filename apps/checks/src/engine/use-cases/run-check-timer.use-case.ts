import { Clock, Job, JobQueueService } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { CheckDatabaseEntity } from '../check-database.entity';
import { Run, TIMER_QUEUE, TimerJob } from '../engine.types';
import { TIME_OUT_DATABASES_SQL } from '../engine-sql';
import { FINISHED, isFinal, SettleCheck } from './settle-check.use-case';

/**
 * Timer (`checks.timer`, a transactional job): marks databases still unanswered after their
 * expected latency `delayed` (and the check `delayed`), and at max_duration marks the rest
 * `expired`; then settles the check, or schedules its next timer.
 */
@Injectable()
export class RunCheckTimer {
  constructor(
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    private readonly settle: SettleCheck,
  ) {}

  async execute(job: Job<TimerJob>, m: EntityManager): Promise<void> {
    const locked = job.tenantId ? await this.settle.lockWithDatabases(m, job.payload.check_id, job.tenantId) : null;
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
        message = `no answer within max_duration (${this.settle.settingsOf(check).maxDurationMinutes} minutes)`;
        timedOut.push({ row, outcome: 'timeout' });
      } else if (row.status === 'not_started' && row.expectedAt && row.expectedAt <= now) status = 'delayed';
      if (status === row.status) continue;
      Object.assign(row, { status, message, updatedAt: now });
      changed.push(row);
    }
    // One statement for every changed database (the check's lock is held meanwhile).
    if (changed.length) {
      await m.query(TIME_OUT_DATABASES_SQL, [
        check.id,
        now,
        JSON.stringify(changed.map((r) => ({ id: r.id, status: r.status, message: r.message }))),
      ]);
    }
    await this.settle.recordRuns(m, timedOut, now);
    if (await this.settle.execute(m, check, rows, now)) return;
    const timer = this.settle.timerJob(check, rows, now);
    if (timer)
      await this.jobs.enqueue<TimerJob>(m, TIMER_QUEUE, timer.payload, {
        tenantId: check.tenantId,
        runAt: timer.runAt,
        dedupeKey: timer.dedupeKey,
      });
  }
}
