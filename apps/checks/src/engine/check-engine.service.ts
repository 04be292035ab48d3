import { DataSet } from '@kyc/contracts';
import { JobQueueService } from '@kyc/platform';
import { Injectable, OnModuleInit } from '@nestjs/common';

import { CheckEntity } from '../checks/check.entity';
import { ChecksConfig } from '../config/checks.config';
import { collectBackoffMs } from './collector-call';
import {
  CheckFinishedExtension,
  COLLECT_QUEUE,
  CollectJob,
  DatabaseOutcome,
  EffectiveSettings,
  START_QUEUE,
  StartJob,
  TIMER_QUEUE,
  TimerJob,
} from './engine.types';
import { CollectDatabase, RecordOptions } from './use-cases/collect-database.use-case';
import { RunCheckTimer } from './use-cases/run-check-timer.use-case';
import { SettleCheck } from './use-cases/settle-check.use-case';
import { StartCheck } from './use-cases/start-check.use-case';

export * from './engine.types';
export { searchedName } from './use-cases/settle-check.use-case';
export { newDetailId } from './use-cases/start-check.use-case';

/**
 * The check engine. A check moves not_started -> in_progress (-> delayed) -> completed | error, in
 * four steps, each a use case with one entry point:
 *
 * - start (`checks.start`, StartCheck): plans the databases, asks the quick ones inline, starts the
 *   check with its collect and timer jobs in one statement.
 * - collect (`checks.collect`, CollectDatabase): asks one database and records its outcome (also
 *   webhook answers).
 * - timer (`checks.timer`, RunCheckTimer): marks late databases `delayed` and, at max_duration,
 *   the rest `expired`.
 * - settle (SettleCheck): recomputes the check from its databases after every change; when every
 *   database is final it finishes with its `checks.check.finished` event in the same transaction.
 *
 * Every change of a check happens under a row lock on the check (or, for the start, only while it
 * is still not_started), so concurrent answers, the timer and webhook calls serialize and a check
 * finishes (and publishes) exactly once, also when a worker dies mid-check and its jobs are taken
 * over. All times come from the injected Clock.
 */
@Injectable()
export class CheckEngineService implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueueService,
    private readonly config: ChecksConfig,
    private readonly startCheck: StartCheck,
    private readonly collectDatabase: CollectDatabase,
    private readonly runTimer: RunCheckTimer,
    private readonly settle: SettleCheck,
  ) {}

  onModuleInit(): void {
    if (!this.config.CHECKS_WORKER_ENABLED) return;
    const lockMs = this.config.CHECKS_WORKER_LOCK_MS;
    // Not transactional: it may ask databases (outside any transaction), then starts the check in
    // one statement of its own; a re-run finds the check started and stops.
    this.jobs.register<StartJob>(START_QUEUE, (job) => this.startCheck.execute(job), {
      concurrency: this.config.CHECKS_START_CONCURRENCY,
      lockMs,
    });
    this.jobs.register<CollectJob>(COLLECT_QUEUE, (job) => this.collectDatabase.execute(job), {
      concurrency: this.config.CHECKS_WORKER_CONCURRENCY,
      lockMs,
      backoffMs: collectBackoffMs,
    });
    this.jobs.register<TimerJob>(TIMER_QUEUE, (job, m) => this.runTimer.execute(job, m), {
      transactional: true,
      concurrency: 2,
      lockMs,
    });
  }

  /**
   * Registers a CheckFinishedExtension (called once per finishing check, in its transaction).
   * `appliesTo` tells which checks it may extend (default: all): the start job finishes the others
   * in a grouped statement, without calling out to extensions.
   */
  extendFinished(extension: CheckFinishedExtension, appliesTo?: (check: CheckEntity) => boolean): void {
    this.settle.extendFinished(extension, appliesTo);
  }

  /** Weights a check scores with: its custom type's (copied at creation) or its built-in type's defaults in its country. */
  weightsOf(check: Pick<CheckEntity, 'type' | 'country' | 'weights'>): Partial<Record<DataSet, number>> {
    return this.settle.weightsOf(check);
  }

  settingsOf(check: Pick<CheckEntity, 'country' | 'settings'>): EffectiveSettings {
    return this.settle.settingsOf(check);
  }

  /** Records a database's answer or failure and settles the check (CollectDatabase.record). */
  record(
    checkId: string,
    tenantId: string,
    rowId: string,
    outcome: DatabaseOutcome,
    options: RecordOptions = {},
  ): Promise<boolean> {
    return this.collectDatabase.record(checkId, tenantId, rowId, outcome, options);
  }

  /** A webhook answered the query `reference`. Unknown references are refused; late or repeated answers ignored. */
  recordWebhook(reference: string, outcome: DatabaseOutcome): Promise<'recorded' | 'ignored' | 'unknown' | 'retrying'> {
    return this.collectDatabase.recordWebhook(reference, outcome);
  }
}
