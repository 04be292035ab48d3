import { Clock, findOneRaw, Job, JOB_COMPLETED, JobQueueService, OutboxService, preparedQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { CheckEntity } from '../../checks/check.entity';
import { CollectorCredentials } from '../../collectors/collector';
import { CollectorRegistry } from '../../collectors/collector.registry';
import { ChecksConfig } from '../../config/checks.config';
import { CredentialsService } from '../../credentials/credentials.service';
import { CheckDatabaseEntity } from '../check-database.entity';
import { askDatabase, collectAttempts, missingCredentials } from '../collector-call';
import { COLLECT_QUEUE, CollectJob, DatabaseOutcome, Run, runRow } from '../engine.types';
import { COUNT_ATTEMPT_SQL, recordSql } from '../engine-sql';
import { FINISHED, isFinal, SettleCheck } from './settle-check.use-case';

export interface RecordOptions {
  /** false: the outcome says nothing about the database's health (no collector run). */
  countRun?: boolean;
  /** The collect job that asked: it completes with the record. */
  job?: Job;
}

/**
 * Collect (`checks.collect`): asks one database. An answer is recorded; `pending` re-asks at the
 * time the source gives (or waits for its webhook); a failure marks it `error`, or, when the
 * tenant's settings have `retries`, is retried with backoff until max_duration. Webhook answers
 * are recorded the same way (record).
 */
@Injectable()
export class CollectDatabase {
  /** The one statement that writes a recorded answer (recordSql). */
  private readonly recordText: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueueService,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
    private readonly config: ChecksConfig,
    private readonly registry: CollectorRegistry,
    private readonly credentials: CredentialsService,
    private readonly settle: SettleCheck,
  ) {
    this.recordText = recordSql(outbox, jobs);
  }

  async execute(job: Job<CollectJob>): Promise<void | typeof JOB_COMPLETED> {
    const tenantId = job.tenantId!;
    const manager = this.dataSource.manager;
    const [check, row] = await Promise.all([
      findOneRaw(manager.getRepository(CheckEntity), { id: job.payload.check_id, tenantId }),
      findOneRaw(manager.getRepository(CheckDatabaseEntity), { id: job.payload.database_row_id, tenantId }),
    ]);
    if (!check || !row || isFinal(row) || FINISHED.includes(check.status)) return;
    const now = this.clock.now();
    if (check.deadlineAt && now >= check.deadlineAt) return; // the timer expires it
    const settings = this.settle.settingsOf(check);
    const collector = this.registry.get(row.databaseId);
    const fail = (message: string, countRun = true) =>
      this.recorded(this.record(check.id, tenantId, row.id, { kind: 'failure', message }, { countRun, job }));
    if (!collector) return fail(`database ${row.databaseId} is not available in this installation`);
    let credentials: CollectorCredentials | undefined;
    if (collector.needsCredentials) {
      credentials = await this.credentials.forCollector(tenantId, row.databaseId);
      if (!credentials) return fail(missingCredentials(row.databaseId), false);
    }
    const [{ attempts }] = await preparedQuery<{ attempts: number }>(
      this.dataSource,
      'checks.engine.attempt',
      COUNT_ATTEMPT_SQL,
      [row.id],
    );
    const timeoutMs = Math.max(1_000, Math.floor(this.config.CHECKS_WORKER_LOCK_MS / 2));
    const result = await askDatabase(collector, check, row, { now, attempt: attempts, credentials, timeoutMs });
    if (result.kind === 'failed') {
      if (result.permanent || !settings.retries) return fail(result.message);
      await this.settle.recordRuns(manager, [{ row, outcome: 'error' }], now);
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
    return this.recorded(this.record(check.id, tenantId, row.id, outcome, { job }));
  }

  /** A webhook answered the query `reference`. Unknown references are refused; late or repeated answers ignored. */
  async recordWebhook(
    reference: string,
    outcome: DatabaseOutcome,
  ): Promise<'recorded' | 'ignored' | 'unknown' | 'retrying'> {
    const row = await this.dataSource.manager.findOneBy(CheckDatabaseEntity, { reference });
    if (!row) return 'unknown';
    if (isFinal(row)) return 'ignored';
    const check = await this.dataSource.manager.findOneBy(CheckEntity, { id: row.checkId, tenantId: row.tenantId });
    if (!check) return 'ignored';
    const now = this.clock.now();
    const settings = this.settle.settingsOf(check);
    if (outcome.kind === 'failure' && settings.retries && (!check.deadlineAt || now < check.deadlineAt)) {
      await this.settle.recordRuns(this.dataSource.manager, [{ row, outcome: 'error' }], now);
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
    return (await this.record(row.checkId, row.tenantId, row.id, outcome)) ? 'recorded' : 'ignored';
  }

  /**
   * Records a database's answer or failure (from a collect job or a webhook) and settles the check,
   * in one transaction: the check locked and its databases read, then one statement with every
   * write (the database, the settled check, its run, the finished event with the fields of the
   * CheckFinishedExtensions that apply, the job's completion). Idempotent: a database already
   * final, or a finished check, is left alone (false). With `job` it completes in the transaction.
   * Other databases of the same check wait on the check's row lock meanwhile.
   */
  record(
    checkId: string,
    tenantId: string,
    rowId: string,
    outcome: DatabaseOutcome,
    options: RecordOptions = {},
  ): Promise<boolean> {
    return this.dataSource.transaction(async (m) => {
      const locked = await this.settle.lockWithDatabases(m, checkId, tenantId);
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
      const finished = this.settle.evaluate(check, rows, now);
      const events = finished
        ? [this.outbox.row(this.settle.finishedEvent(check, await this.settle.finishedExtra(m, check)))]
        : [];
      await preparedQuery(
        this.dataSource,
        'checks.engine.record',
        this.recordText,
        [
          row.id,
          check.id,
          row.status,
          row.answer === null ? null : JSON.stringify(row.answer),
          row.message,
          now,
          check.status,
          check.score,
          check.idScore,
          check.homonymScore,
          JSON.stringify(check.result),
          finished ? check.finishedAt : null,
          JSON.stringify(runs.map((run) => runRow(run, now))),
          JSON.stringify(events),
          options.job ? [options.job.id] : [],
          options.job ? [options.job.attempt] : [],
        ],
        m,
      );
      if (finished) this.settle.logFinished(check);
      return true;
    });
  }

  /** A collect job's result: completed with the record (JOB_COMPLETED), else by the queue. */
  private async recorded(recording: Promise<boolean>): Promise<void | typeof JOB_COMPLETED> {
    return (await recording) ? JOB_COMPLETED : undefined;
  }
}
