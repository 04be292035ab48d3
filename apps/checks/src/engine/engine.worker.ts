import { JobQueueService } from '@kyc/platform';
import { Injectable, OnModuleInit } from '@nestjs/common';

import { ChecksConfig } from '../config/checks.config';
import { CheckRunStore } from './check-run.store';
import { collectBackoffMs } from './collector-call';
import {
  COLLECT_QUEUE,
  CollectJob,
  START_QUEUE,
  StartJob,
  TIMER_QUEUE,
  TimerJob,
  WAITING_START_QUEUE,
} from './engine.types';
import { CollectDatabaseUseCase } from './use-cases/collect-database.use-case';
import { RunCheckTimerUseCase } from './use-cases/run-check-timer.use-case';
import { StartCheckUseCase } from './use-cases/start-check.use-case';

/**
 * The check engine's workers. A check moves not_started -> in_progress (-> delayed) -> completed |
 * error, in steps, each a use case with one entry point (`execute`):
 *
 * - start (`checks.start.waiting`: the checks waiting to start, claimed from `checks` itself; and
 *   `checks.start`, the start jobs of replicas of the previous version; StartCheckUseCase): plans the databases, asks the quick ones inline,
 *   starts the check with its collect and timer jobs in one statement.
 * - collect (`checks.collect`, CollectDatabaseUseCase): asks one database and records its outcome
 *   (RecordOutcomeUseCase; webhook answers: RecordWebhookAnswerUseCase).
 * - timer (`checks.timer`, RunCheckTimerUseCase): marks late databases `delayed` and, at
 *   max_duration, the rest `expired`.
 *
 * Each settles the check from its databases (settlement.ts, pure) after its change; when every
 * database is final the check finishes with its `checks.check.finished` event (finishCheck) in the
 * same statement (CheckRunStore, the one writer of a check's run).
 *
 * Every change of a check happens under a row lock on the check (or, for the start, only while it
 * is still not_started), so concurrent answers, the timer and webhook calls serialize and a check
 * finishes (and publishes) exactly once, also when a worker dies mid-check and its jobs are taken
 * over. All times come from the injected Clock.
 */
@Injectable()
export class EngineWorker implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueueService,
    private readonly config: ChecksConfig,
    private readonly startCheck: StartCheckUseCase,
    private readonly collectDatabase: CollectDatabaseUseCase,
    private readonly runTimer: RunCheckTimerUseCase,
    private readonly store: CheckRunStore,
  ) {}

  onModuleInit(): void {
    if (!this.config.CHECKS_WORKER_ENABLED) return;
    const lockMs = this.config.CHECKS_WORKER_LOCK_MS;
    // Not transactional: it may ask databases (outside any transaction), then starts the check in
    // one statement of its own; a re-run finds the check started and stops.
    this.jobs.register<StartJob>(WAITING_START_QUEUE, (job) => this.startCheck.execute(job), {
      concurrency: this.config.CHECKS_START_CONCURRENCY,
      lockMs,
      source: this.store.startSource,
    });
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
}
