import { Clock, Job, JobQueueService, OutboxService, preparedQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { CheckDatabaseEntity } from '../check-database.entity';
import { Run, runRow, TIMER_QUEUE, TimerJob } from '../engine.types';
import { timerSql } from '../engine-sql';
import { FINISHED, isFinal, SettleCheck } from './settle-check.use-case';

/**
 * Timer (`checks.timer`, a transactional job): marks databases still unanswered after their
 * expected latency `delayed` (and the check `delayed`), and at max_duration marks the rest
 * `expired`; then settles the check, or schedules its next timer: every write in one statement
 * (timerSql) under the check's lock.
 */
@Injectable()
export class RunCheckTimer {
  private readonly timerText: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    private readonly settle: SettleCheck,
  ) {
    this.timerText = timerSql(outbox, jobs);
  }

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
    const finished = this.settle.evaluate(check, rows, now);
    const events = finished
      ? [this.outbox.row(this.settle.finishedEvent(check, await this.settle.finishedExtra(m, check)))]
      : [];
    const timer = finished ? null : this.settle.timerJob(check, rows, now);
    const next = timer
      ? [
          this.jobs.row<TimerJob>(TIMER_QUEUE, timer.payload, {
            tenantId: check.tenantId,
            runAt: timer.runAt,
            dedupeKey: timer.dedupeKey,
          }),
        ]
      : [];
    await preparedQuery(
      this.dataSource,
      'checks.engine.timer',
      this.timerText,
      [
        check.id,
        now,
        JSON.stringify(changed.map((r) => ({ id: r.id, status: r.status, message: r.message }))),
        check.status,
        check.score,
        check.idScore,
        check.homonymScore,
        JSON.stringify(check.result),
        finished ? check.finishedAt : null,
        JSON.stringify(timedOut.map((run) => runRow(run, now))),
        JSON.stringify(events),
        JSON.stringify(next),
      ],
      m,
    );
    if (finished) this.settle.logFinished(check);
  }
}
