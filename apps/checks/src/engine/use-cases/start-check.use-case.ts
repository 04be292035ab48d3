import { randomBytes, randomUUID } from 'node:crypto';

import { Clock, Job, JOB_COMPLETED, JobQueueService, JobRow, OutboxRow } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { CollectorRegistry } from '../../collectors/collector.registry';
import { ChecksConfig } from '../../config/checks.config';
import { CheckEntity } from '../check.entity';
import { CheckDatabaseEntity } from '../check-database.entity';
import { CheckRunStore } from '../check-run.store';
import { askDatabase, asksInline, collectAttempts, collectBackoffMs, missingCredentials } from '../collector-call';
import { effectiveInputs } from '../effective-inputs';
import { COLLECT_QUEUE, CollectJob, Run, runRow, StartJob, TIMER_QUEUE } from '../engine.types';
import { FinishedEvents } from '../finished-events';
import { nextTimer, settingsOf, settleCheck, weightsOf } from '../settlement';

export const newDetailId = () => `DTL${randomUUID().replace(/-/g, '')}`;

/**
 * Start (`checks.start`, queued by the create statement): plans the databases the check's type,
 * country and inputs allow (one row each; the others are listed as `skipped` with the inputs they
 * lack). It first asks, concurrently and outside any transaction, every synchronous database
 * without credentials or first-ask delay whose declared answer time is at most
 * CHECKS_INLINE_COLLECT_MAX_MS. Then one statement (startSql) starts the check if it is still
 * not_started (a re-run or another worker finds it started): the database rows with those
 * outcomes, their collector runs, the settled check (finished, with its event, when all are
 * final), one `checks.collect` job per database not answered inline, a `checks.timer` job while
 * something is open, and the start job's completion. Concurrent starts share that statement and
 * its commit (CheckRunStore.startOne); a finishing check with a CheckFinishedExtension runs it in a
 * transaction where the extension runs first.
 */
@Injectable()
export class StartCheckUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    private readonly config: ChecksConfig,
    private readonly registry: CollectorRegistry,
    private readonly store: CheckRunStore,
    private readonly finished: FinishedEvents,
  ) {}

  async execute(job: Job<StartJob>): Promise<void | typeof JOB_COMPLETED> {
    const tenantId = job.tenantId;
    if (!tenantId) return;
    const found = await this.store.loadForStart(job.payload.check_id, tenantId);
    if (!found || found.check.status !== 'not_started') return;
    const { check } = found;
    const now = this.clock.now();
    const settings = settingsOf(check);
    const deadlineAt = new Date(check.createdAt.getTime() + settings.maxDurationMinutes * 60_000);
    const rows = this.plan(check, found.credentials, now);

    // Ask the quick synchronous databases now, concurrently, outside any transaction.
    const max = this.config.CHECKS_INLINE_COLLECT_MAX_MS;
    const inline =
      now < deadlineAt
        ? rows.filter((r) => r.status === 'not_started' && asksInline(this.registry, max, check, r.databaseId))
        : [];
    const timeoutMs = Math.max(1_000, Math.floor(this.config.CHECKS_WORKER_LOCK_MS / 2));
    const asked = await Promise.all(
      inline.map(async (row) => {
        row.attempts = 1;
        const collector = this.registry.get(row.databaseId)!;
        return { row, result: await askDatabase(collector, check, row, { now, attempt: 1, timeoutMs }) };
      }),
    );
    const done = inline.length ? this.clock.now() : now;
    const runs: Run[] = [];
    const jobs: JobRow[] = [];
    const collectJob = (row: CheckDatabaseEntity, runAt: Date, key: string) =>
      jobs.push(
        this.jobs.row<CollectJob>(
          COLLECT_QUEUE,
          { check_id: check.id, database_row_id: row.id },
          { tenantId, runAt, maxAttempts: collectAttempts(settings), dedupeKey: `collect:${row.id}:${key}` },
        ),
      );
    for (const { row, result } of asked) {
      if (result.kind === 'failed') {
        runs.push({ row, outcome: 'error' });
        // Retried by its own job with the collect queue's backoff, as a failed collect job would be.
        if (!result.permanent && settings.retries)
          collectJob(row, new Date(done.getTime() + collectBackoffMs(1)), 'start');
        else
          Object.assign(row, {
            status: 'error',
            message: result.message.slice(0, 500),
            answeredAt: done,
            updatedAt: done,
          });
      } else if (result.outcome.kind === 'answer') {
        runs.push({ row, outcome: 'success' });
        Object.assign(row, { status: 'completed', answer: result.outcome, answeredAt: done, updatedAt: done });
      } else if (result.outcome.pollAt) collectJob(row, result.outcome.pollAt, String(result.outcome.pollAt.getTime()));
    }
    const askedIds = new Set(inline.map((r) => r.id));
    for (const row of rows.filter((r) => r.status === 'not_started' && !askedIds.has(r.id))) {
      const c = { country: check.country, type: check.type, region: check.region };
      const delay = this.registry.get(row.databaseId)?.firstAskDelayMs?.(c) ?? 0;
      collectJob(row, new Date(now.getTime() + Math.max(0, delay)), 'start');
    }

    check.startedAt = now;
    check.deadlineAt = deadlineAt;
    const finished = settleCheck(check, rows, done, weightsOf(this.registry, check));
    const timer = finished ? null : nextTimer(check, rows, done);
    if (timer)
      jobs.push(
        this.jobs.row(TIMER_QUEUE, timer.payload, { tenantId, runAt: timer.runAt, dedupeKey: timer.dedupeKey }),
      );
    const start = (events: OutboxRow[]) => ({
      check,
      rows,
      finished,
      job,
      runs: runs.map((run) => runRow(run, done)),
      events,
      jobs,
    });
    if (!finished || !this.finished.extended(check)) {
      const started = await this.store.startOne(start(finished ? [this.finished.plain(check)] : []));
      if (started && finished) this.finished.written(check);
      return JOB_COMPLETED;
    }
    // A finishing check with extensions: they run first, in the statement's transaction, under the check's lock.
    return this.dataSource.transaction(async (m) => {
      if ((await this.store.lockStatus(m, check.id, tenantId)) !== 'not_started') return undefined;
      await this.store.startOne(start(await this.finished.of(m, check, true)), m);
      this.finished.written(check);
      return JOB_COMPLETED;
    });
  }

  /** The check's databases, planned (not stored): not_started, skipped, or error for missing credentials. */
  private plan(check: CheckEntity, withCredentials: Set<string>, now: Date): CheckDatabaseEntity[] {
    const plan = this.registry.plan({
      country: check.country,
      type: check.type,
      region: check.region,
      inputs: effectiveInputs(check.inputs, check.region),
      weights: weightsOf(this.registry, check),
    });
    return plan.map(({ collector, search, invalidInputs }) => {
      // A database that needs credentials the tenant has not stored fails at once, saying how to add them.
      const missing = !!search && collector.needsCredentials && !withCredentials.has(collector.databaseId);
      return Object.assign(new CheckDatabaseEntity(), {
        id: newDetailId(),
        checkId: check.id,
        tenantId: check.tenantId,
        databaseId: collector.databaseId,
        databaseName: collector.databaseName,
        country: collector.country,
        dataSets: [...collector.dataSets],
        status: missing ? 'error' : search ? 'not_started' : 'skipped',
        searchBy: search?.by ?? null,
        invalidInputs: invalidInputs ?? null,
        message: missing ? missingCredentials(collector.databaseId) : null,
        answer: null,
        reference: `REF${randomBytes(16).toString('hex')}`,
        attempts: 0,
        requestedAt: search ? now : null,
        expectedAt: search ? new Date(now.getTime() + collector.expectedLatencyMs) : null,
        answeredAt: null,
        createdAt: now,
        updatedAt: now,
      });
    });
  }
}
