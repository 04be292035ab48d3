import { randomUUID } from 'node:crypto';

import type {
  CheckFinishedPayload,
  ContinuousCheckFinishedV0,
  ContinuousCheckFinishedV1,
  ContinuousScoreChange,
} from '@kyc/contracts';
import { AppException, Caller, Clock, Job, JobQueueService } from '@kyc/platform';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { ChecksService } from '../checks/checks.service';
import { ChecksConfig } from '../config/checks.config';
import { CheckEntity } from '../engine/check.entity';
import { FinishedEvents } from '../engine/finished-events';
import { ContinuousCheckEntity } from './continuous-check.entity';
import { ContinuousCheckRunEntity } from './continuous-check-run.entity';
import { CONTINUOUS_RUN_QUEUE, ContinuousChecksService, ContinuousRunJob } from './continuous-checks.service';
import { nextDueAfter, parseDate, parseFrequency, withinEnd } from './frequency';

export const newRunId = () => `CCR${randomUUID().replace(/-/g, '')}`;
/** Scores closer than this are the same (floating point of weighted averages). */
const EPSILON = 1e-9;

export function scoreChange(previous: number, current: number): 'up' | 'down' | 'same' {
  if (current > previous + EPSILON) return 'up';
  if (current < previous - EPSILON) return 'down';
  return 'same';
}

/** Every score (global, id, name, per dataset) that differs between two checks. */
export function scoreChanges(previous: CheckEntity | null, current: CheckEntity): ContinuousScoreChange[] {
  const changes: ContinuousScoreChange[] = [];
  const push = (name: string, oldScore: number | undefined, newScore: number | undefined) => {
    const o = oldScore ?? -1;
    const n = newScore ?? -1;
    if (Math.abs(o - n) > EPSILON) changes.push({ name, old_score: o, new_score: n });
  };
  push('score', previous?.score, current.score);
  push('id_score', previous?.idScore, current.idScore);
  push('homonym_score', previous?.homonymScore, current.homonymScore);
  const before = new Map((previous?.result?.scores ?? []).map((s) => [s.data_set, s.score]));
  const after = new Map((current.result?.scores ?? []).map((s) => [s.data_set, s.score]));
  for (const dataSet of new Set([...before.keys(), ...after.keys()]))
    push(dataSet, before.get(dataSet), after.get(dataSet));
  return changes;
}

/**
 * Runs continuous checks: the job of each due run creates the new check (same inputs, through
 * ChecksService.create, in the job's transaction) and queues the next due run; when that check
 * finishes, the engine's checks.check.finished event of it carries the run (continuous_check_id,
 * score_change, and for hook version 1 the run details) and the run's history entry is completed.
 */
@Injectable()
export class ContinuousCheckRunner implements OnModuleInit {
  private readonly logger = new Logger('continuous-checks');

  constructor(
    private readonly jobs: JobQueueService,
    private readonly finishedEvents: FinishedEvents,
    private readonly checks: ChecksService,
    private readonly continuous: ContinuousChecksService,
    private readonly clock: Clock,
    private readonly config: ChecksConfig,
  ) {}

  onModuleInit(): void {
    // Runs always repeat a previous check: only those can be a run's.
    this.finishedEvents.extend(
      (m, check) => this.onCheckFinished(m, check),
      (check) => !!check.previousCheck,
    );
    if (!this.config.CHECKS_WORKER_ENABLED) return;
    this.jobs.register<ContinuousRunJob>(CONTINUOUS_RUN_QUEUE, (job, m) => this.run(job, m), {
      transactional: true,
      concurrency: 2,
    });
  }

  /** One due run: creates the check, records the run, schedules the next due time (all in the job's transaction). */
  async run(job: Job<ContinuousRunJob>, m: EntityManager): Promise<void> {
    const cc = await m
      .getRepository(ContinuousCheckEntity)
      .createQueryBuilder('cc')
      .setLock('pessimistic_write')
      .where('cc.id = :id AND cc.tenantId = :tenant', { id: job.payload.continuous_check_id, tenant: job.tenantId })
      .getOne();
    const due = new Date(job.payload.due_at);
    // Disabled, ended, rescheduled, or already run (a second replica, a redelivered job): nothing to do.
    if (!cc || cc.status !== 'enabled' || !cc.nextRunAt || cc.nextRunAt.getTime() !== due.getTime()) return;
    const now = this.clock.now();
    const frequency = parseFrequency(cc.frequency)!;
    const run = m.create(ContinuousCheckRunEntity, {
      id: newRunId(),
      tenantId: cc.tenantId,
      continuousCheckId: cc.id,
      counter: cc.counter + 1,
      checkId: null,
      previousCheckId: cc.lastCheckId,
      dueAt: due,
      status: 'running',
      score: null,
      previousScore: null,
      scoreChange: null,
      changes: null,
      message: null,
      createdAt: now,
      finishedAt: null,
    });
    const original = await m.findOneBy(CheckEntity, { id: cc.checkId, tenantId: cc.tenantId });
    if (!original) {
      Object.assign(run, {
        status: 'error',
        message: `check ${cc.checkId} was deleted: the continuous check stops`,
        finishedAt: now,
      });
      cc.nextRunAt = null;
    } else {
      // The tenant's user who scheduled it, trusted for the country (it was allowed when the original was created).
      const caller = new Caller(
        cc.tenantId,
        cc.createdBy,
        undefined,
        `continuous:${cc.id}`,
        'backend',
        cc.apiKeyVersion,
        undefined,
        new Set(['checks.country_all']),
        [],
      );
      try {
        const { check } = await this.checks.create(
          caller,
          {
            ...original.inputs,
            country: original.country,
            type: original.type,
            ...(original.customInput ? { custom_input: original.customInput } : {}),
            ...(original.reportId ? { report_id: original.reportId } : {}),
            user_authorized: 'true',
            force_creation: 'true',
          },
          { manager: m, previousCheckId: cc.lastCheckId },
        );
        run.checkId = check.id;
        cc.lastCheckId = check.id;
      } catch (err) {
        if (!(err instanceof AppException) || err.status >= 500) throw err;
        Object.assign(run, { status: 'error', message: `${err.message}`.slice(0, 500), finishedAt: now });
      }
      const next = nextDueAfter(cc.anchorAt, frequency, due > now ? due : now);
      cc.nextRunAt = withinEnd(next, parseDate(cc.endDate)!) ? next : null;
    }
    cc.counter = run.counter;
    cc.updatedAt = now;
    await m.insert(ContinuousCheckRunEntity, run);
    await m.update(
      ContinuousCheckEntity,
      { id: cc.id, tenantId: cc.tenantId },
      { counter: cc.counter, lastCheckId: cc.lastCheckId, nextRunAt: cc.nextRunAt, updatedAt: now },
    );
    await this.continuous.schedule(m, cc);
    this.logger.log({
      msg: 'continuous check ran',
      continuous_check_id: cc.id,
      tenant_id: cc.tenantId,
      check_id: run.checkId,
      next_run_at: cc.nextRunAt?.toISOString() ?? null,
    });
  }

  /**
   * A check finished (in the engine's transaction): when it is a continuous check's run, completes
   * the run with its score change and returns the fields of the run's checks.check.finished payload
   * (shape by the hook API key version: ContinuousCheckFinishedV0 or V1 in @kyc/contracts).
   */
  async onCheckFinished(m: EntityManager, check: CheckEntity): Promise<Partial<Omit<CheckFinishedPayload, 'check'>>> {
    // Runs always repeat a previous check: other checks cost no query here.
    if (!check.previousCheck) return {};
    const run = await m
      .getRepository(ContinuousCheckRunEntity)
      .createQueryBuilder('r')
      .setLock('pessimistic_write')
      .where('r.checkId = :check AND r.tenantId = :tenant', { check: check.id, tenant: check.tenantId })
      .getOne();
    if (!run) return {};
    const cc = await m.findOneBy(ContinuousCheckEntity, { id: run.continuousCheckId, tenantId: run.tenantId });
    if (!cc) return {};
    const previous = await m.findOneBy(CheckEntity, { id: run.previousCheckId, tenantId: run.tenantId });
    const previousScore = previous?.score ?? -1;
    const change = scoreChange(previousScore, check.score);
    const changes = scoreChanges(previous, check);
    const now = this.clock.now();
    Object.assign(run, {
      status: check.status === 'error' ? 'error' : 'finished',
      score: check.score,
      previousScore,
      scoreChange: change,
      changes,
      finishedAt: now,
    });
    await m.update(
      ContinuousCheckRunEntity,
      { id: run.id },
      {
        status: run.status,
        score: run.score,
        previousScore,
        scoreChange: change,
        changes: changes,
        finishedAt: now,
      },
    );
    await m.update(
      ContinuousCheckEntity,
      { id: cc.id, tenantId: cc.tenantId },
      { scoreStatus: change, updatedAt: now },
    );
    const v0: Omit<ContinuousCheckFinishedV0, 'check'> = {
      continuous_check_id: cc.id,
      score_change: change,
      hook_api_key_version: 0,
    };
    if (cc.apiKeyVersion !== 1) return v0;
    const v1: Omit<ContinuousCheckFinishedV1, 'check'> = {
      continuous_check_id: cc.id,
      score_change: change,
      hook_api_key_version: 1,
      continuous_check: {
        continuous_check_id: cc.id,
        run_id: run.id,
        counter: run.counter,
        frequency: cc.frequency,
        check_id: check.id,
        previous_check_id: run.previousCheckId,
        previous_score: previousScore,
        score: check.score,
        score_change: change,
        changes,
      },
    };
    return v1;
  }
}
