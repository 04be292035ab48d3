import { Clock, Job } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { CollectorRegistry } from '../../collectors/collector.registry';
import { CheckRunStore } from '../check-run.store';
import { DatabaseOutcome, Run, runRow } from '../engine.types';
import { FinishedEvents } from '../finished-events';
import { FINISHED, isFinal, settleCheck, weightsOf } from '../settlement';

export interface RecordOptions {
  /** false: the outcome says nothing about the database's health (no collector run). */
  countRun?: boolean;
  /** The collect job that asked: it completes with the record. */
  job?: Job;
}

/**
 * Records a database's answer or failure (from a collect job or a webhook) and settles the check,
 * in one transaction: the check locked and its databases read, then one statement with every
 * write (the database, the settled check, its run, the finished event with the fields of the
 * CheckFinishedExtensions that apply, the job's completion). Idempotent: a database already
 * final, or a finished check, is left alone (false). With `job` it completes in the transaction.
 * Other databases of the same check wait on the check's row lock meanwhile.
 */
@Injectable()
export class RecordOutcomeUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly registry: CollectorRegistry,
    private readonly store: CheckRunStore,
    private readonly finished: FinishedEvents,
  ) {}

  execute(
    checkId: string,
    tenantId: string,
    rowId: string,
    outcome: DatabaseOutcome,
    options: RecordOptions = {},
  ): Promise<boolean> {
    return this.dataSource.transaction(async (m) => {
      const locked = await this.store.lockWithDatabases(m, checkId, tenantId);
      if (!locked || FINISHED.includes(locked.check.status)) return false;
      const { check, rows } = locked;
      const row = rows.find((r) => r.id === rowId);
      if (!row || isFinal(row)) return false;
      const now = this.clock.now();
      Object.assign(row, {
        status: outcome.kind === 'answer' ? 'completed' : 'error',
        answer: outcome.kind === 'answer' ? outcome : null,
        message: outcome.kind === 'failure' ? outcome.message.slice(0, 500) : null,
        answeredAt: now,
        updatedAt: now,
      });
      // A tenant's missing credentials say nothing about the database's health.
      const runs: Run[] =
        options.countRun === false ? [] : [{ row, outcome: outcome.kind === 'answer' ? 'success' : 'error' }];
      const finished = settleCheck(check, rows, now, weightsOf(this.registry, check));
      await this.store.record(m, {
        check,
        row,
        now,
        finished,
        runs: runs.map((run) => runRow(run, now)),
        events: await this.finished.of(m, check, finished),
        job: options.job,
      });
      if (finished) this.finished.written(check);
      return true;
    });
  }
}
