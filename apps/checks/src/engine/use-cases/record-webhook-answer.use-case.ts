import { Clock, JobQueueService } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { CheckRunStore } from '../check-run.store';
import { COLLECT_QUEUE, CollectJob, DatabaseOutcome, runRow } from '../engine.types';
import { isFinal, settingsOf } from '../settlement';
import { RecordOutcomeUseCase } from './record-outcome.use-case';

/**
 * A webhook answered the query `reference`: the answer is recorded (RecordOutcomeUseCase); a
 * failure is retried a minute later when the tenant's settings have `retries` and the check's
 * deadline has not passed. Unknown references are refused; late or repeated answers ignored.
 */
@Injectable()
export class RecordWebhookAnswerUseCase {
  constructor(
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    private readonly store: CheckRunStore,
    private readonly recordOutcome: RecordOutcomeUseCase,
  ) {}

  async execute(reference: string, outcome: DatabaseOutcome): Promise<'recorded' | 'ignored' | 'unknown' | 'retrying'> {
    const found = await this.store.findByReference(reference);
    if (!found) return 'unknown';
    const { row, check } = found;
    if (isFinal(row)) return 'ignored';
    if (!check) return 'ignored';
    const now = this.clock.now();
    const settings = settingsOf(check);
    if (outcome.kind === 'failure' && settings.retries && (!check.deadlineAt || now < check.deadlineAt)) {
      await this.store.recordRuns([runRow({ row, outcome: 'error' }, now)]);
      const retryAt = new Date(now.getTime() + 60_000);
      await this.jobs.enqueue<CollectJob>(
        null,
        COLLECT_QUEUE,
        { check_id: check.id, database_row_id: row.id },
        {
          tenantId: row.tenantId,
          runAt: retryAt,
          maxAttempts: 10_000,
          dedupeKey: `collect:${row.id}:${retryAt.getTime()}`,
        },
      );
      return 'retrying';
    }
    return (await this.recordOutcome.execute(row.checkId, row.tenantId, row.id, outcome)) ? 'recorded' : 'ignored';
  }
}
