import { Clock, Job, JOB_COMPLETED, JobQueueService } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { CollectorCredentials } from '../../collectors/collector';
import { CollectorRegistry } from '../../collectors/collector.registry';
import { ChecksConfig } from '../../config/checks.config';
import { CredentialsService } from '../../credentials/credentials.service';
import { CheckRunStore } from '../check-run.store';
import { askDatabase, collectAttempts, missingCredentials } from '../collector-call';
import { COLLECT_QUEUE, CollectJob, runRow } from '../engine.types';
import { FINISHED, isFinal, settingsOf } from '../settlement';
import { RecordOutcomeUseCase } from './record-outcome.use-case';

/**
 * Collect (`checks.collect`): asks one database. An answer is recorded (RecordOutcomeUseCase);
 * `pending` re-asks at the time the source gives (or waits for its webhook); a failure marks it
 * `error`, or, when the tenant's settings have `retries`, is retried with backoff until
 * max_duration.
 */
@Injectable()
export class CollectDatabaseUseCase {
  constructor(
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    private readonly config: ChecksConfig,
    private readonly registry: CollectorRegistry,
    private readonly credentials: CredentialsService,
    private readonly store: CheckRunStore,
    private readonly recordOutcome: RecordOutcomeUseCase,
  ) {}

  async execute(job: Job<CollectJob>): Promise<void | typeof JOB_COMPLETED> {
    const tenantId = job.tenantId!;
    const [check, row] = await this.store.findWithDatabase(job.payload.check_id, job.payload.database_row_id, tenantId);
    if (!check || !row || isFinal(row) || FINISHED.includes(check.status)) return;
    const now = this.clock.now();
    if (check.deadlineAt && now >= check.deadlineAt) return; // the timer expires it
    const settings = settingsOf(check);
    const collector = this.registry.get(row.databaseId);
    const fail = (message: string, countRun = true) =>
      this.recorded(
        this.recordOutcome.execute(check.id, tenantId, row.id, { kind: 'failure', message }, { countRun, job }),
      );
    if (!collector) return fail(`database ${row.databaseId} is not available in this installation`);
    let credentials: CollectorCredentials | undefined;
    if (collector.needsCredentials) {
      credentials = await this.credentials.forCollector(tenantId, row.databaseId);
      if (!credentials) return fail(missingCredentials(row.databaseId), false);
    }
    const attempts = await this.store.countAttempt(row.id);
    const timeoutMs = Math.max(1_000, Math.floor(this.config.CHECKS_WORKER_LOCK_MS / 2));
    const result = await askDatabase(collector, check, row, { now, attempt: attempts, credentials, timeoutMs });
    if (result.kind === 'failed') {
      if (result.permanent || !settings.retries) return fail(result.message);
      await this.store.recordRuns([runRow({ row, outcome: 'error' }, now)]);
      throw result.error; // retried with backoff; the timer expires the database at max_duration
    }
    const outcome = result.outcome;
    if (outcome.kind === 'pending') {
      if (outcome.pollAt) {
        await this.jobs.enqueue<CollectJob>(null, COLLECT_QUEUE, job.payload, {
          tenantId,
          runAt: outcome.pollAt,
          maxAttempts: collectAttempts(settings),
          dedupeKey: `collect:${row.id}:${outcome.pollAt.getTime()}`,
        });
      }
      return;
    }
    return this.recorded(this.recordOutcome.execute(check.id, tenantId, row.id, outcome, { job }));
  }

  /** A collect job's result: completed with the record (JOB_COMPLETED), else by the queue. */
  private async recorded(recording: Promise<boolean>): Promise<void | typeof JOB_COMPLETED> {
    return (await recording) ? JOB_COMPLETED : undefined;
  }
}
