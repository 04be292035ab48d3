import { presentCheck } from '../checks/check.presenter';
import type { CheckEntity } from '../engine/check.entity';
import type { ContinuousCheckEntity } from './continuous-check.entity';
import type { ContinuousCheckRunEntity } from './continuous-check-run.entity';

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The published ContinuousCheck's own (PascalCase) fields, Frequency, LastCheckID and
 * ContinuousCheckStatus required there; dates as RFC 3339 dates, as that schema types them.
 */
const publishedFields = (cc: ContinuousCheckEntity) => ({
  ContinuousCheckID: cc.id,
  Frequency: cc.frequency,
  LastCheckID: cc.lastCheckId,
  ContinuousCheckStatus: cc.scoreStatus,
  Enabled: cc.status === 'enabled',
  ...(cc.nextRunAt ? { NextRunDate: day(cc.nextRunAt) } : {}),
  CreationDate: day(cc.createdAt),
  UpdateDate: day(cc.updatedAt),
});

const monitoredCheckFields = (check: Record<string, unknown>) => ({
  statuses: check.statuses,
  country: check.country,
  score: check.score,
  summary: check.summary,
  type: check.type,
  id_score: check.id_score,
});

/**
 * A continuous check as the API returns it (public ContinuousCheck: the original check under
 * `check`, the published schema's own fields beside the snake_case ones).
 */
export function presentContinuousCheck(cc: ContinuousCheckEntity, original: CheckEntity | undefined) {
  const check = original ? presentCheck(original) : undefined;
  return {
    ...publishedFields(cc),
    // The published list types its items as Check: the monitored check's required Check fields.
    ...(check ? monitoredCheckFields(check) : {}),
    continuous_check_id: cc.id,
    check_id: cc.checkId,
    ...(check ? { check } : {}),
    last_check_id: cc.lastCheckId,
    frequency: cc.frequency,
    end_date: cc.endDate,
    status: cc.status,
    api_key_version: cc.apiKeyVersion,
    counter: cc.counter,
    score_status: cc.scoreStatus,
    next_run_date: cc.nextRunAt ? cc.nextRunAt.toISOString() : null,
    creation_date: cc.createdAt.toISOString(),
    update_date: cc.updatedAt.toISOString(),
    self: `/v1/continuous-checks/${cc.id}`,
  };
}

/** One run log (public ContinuousCheckEntry plus the run's scores and score change). */
export function presentRun(run: ContinuousCheckRunEntity) {
  return {
    run_id: run.id,
    continuous_check_id: run.continuousCheckId,
    counter: run.counter,
    check_id: run.checkId,
    previous_check_id: run.previousCheckId,
    status: run.status,
    due_date: run.dueAt.toISOString(),
    score: run.score,
    previous_score: run.previousScore,
    score_change: run.scoreChange,
    changes: run.changes ?? [],
    ...(run.message ? { message: run.message } : {}),
    creation_date: run.createdAt.toISOString(),
    finished_date: run.finishedAt ? run.finishedAt.toISOString() : null,
  };
}
