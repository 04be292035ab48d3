import {
  BUILT_IN_CHECK_TYPES,
  BuiltInCheckType,
  CHECK_EVENT_TYPES,
  CheckFinishedPayload,
  CheckStatus,
  DataSet,
  TOPICS,
} from '@kyc/contracts';
import type { OutgoingEvent } from '@kyc/platform';

import type { CollectorRegistry } from '../collectors/collector.registry';
import { fullName } from '../shared/names';
import type { CheckEntity } from './check.entity';
import type { CheckDatabaseEntity } from './check-database.entity';
import { checkRecord } from './check-record';
import { defaultMaxDurationMinutes, defaultWeights } from './datasets';
import type { EffectiveSettings, TimerJob } from './engine.types';
import { databaseStatuses, FINAL_DATABASE_STATUSES, scoreCheck, ScoredDatabase, summarize } from './scoring';

/**
 * Settlement: a check recomputed from its databases (status, scores, statuses, summary), finished
 * when every database is final (`completed` if one answered, `error` if none did), with the one
 * `checks.check.finished` event finishCheck builds. Pure: the use cases (start, collect, timer)
 * settle under the check's lock and write the outcome with their own one statement (CheckRunStore).
 */

export const FINISHED: readonly CheckStatus[] = ['completed', 'error'];
export const isFinal = (row: Pick<CheckDatabaseEntity, 'status'>) => FINAL_DATABASE_STATUSES.includes(row.status);

/** The name scoring compares name-only records with: the person's full name, else the company name. */
export function searchedName(check: Pick<CheckEntity, 'type' | 'inputs'>): string | null {
  const person = fullName(check.inputs.first_name, check.inputs.last_name);
  if (check.type === 'company') return check.inputs.company_name ?? null;
  return person || check.inputs.company_name || null;
}

/** Default weights per registry and `type/country` (computed once: the registry does not change). */
const defaults = new WeakMap<CollectorRegistry, Map<string, Partial<Record<DataSet, number>>>>();

/** Weights a check scores with: its custom type's (copied at creation) or its built-in type's defaults in its country. */
export function weightsOf(
  registry: CollectorRegistry,
  check: Pick<CheckEntity, 'type' | 'country' | 'weights'>,
): Partial<Record<DataSet, number>> {
  if (check.weights) return check.weights;
  if (!(BUILT_IN_CHECK_TYPES as readonly string[]).includes(check.type)) return {};
  let cache = defaults.get(registry);
  if (!cache) {
    cache = new Map<string, Partial<Record<DataSet, number>>>();
    defaults.set(registry, cache);
  }
  const key = `${check.type}/${check.country}`;
  let w = cache.get(key);
  if (!w) {
    w = defaultWeights(check.type as BuiltInCheckType, registry.candidates(check.country, check.type));
    cache.set(key, w);
  }
  return w;
}

/** The settings a check runs with: those copied at its creation, else the defaults of its country. */
export function settingsOf(check: Pick<CheckEntity, 'country' | 'settings'>): EffectiveSettings {
  const retries = check.settings?.retries ?? false;
  return {
    retries,
    namesMatching: check.settings?.names_matching_type ?? 'soft',
    maxDurationMinutes: check.settings?.max_duration_minutes ?? defaultMaxDurationMinutes(check.country, retries),
  };
}

/**
 * Computes the check's status, scores, statuses and summary from its databases (in memory, on
 * `check`), with the weights it scores with. Returns true when it finished.
 */
export function settleCheck(
  check: CheckEntity,
  rows: CheckDatabaseEntity[],
  now: Date,
  weights: Partial<Record<DataSet, number>>,
): boolean {
  const databases: ScoredDatabase[] = rows.map((r) => ({
    databaseId: r.databaseId,
    databaseName: r.databaseName,
    dataSets: r.dataSets,
    status: r.status,
    searchBy: r.searchBy,
    answer: r.answer,
    invalidInputs: r.invalidInputs,
    message: r.message,
  }));
  const input = {
    weights,
    databases,
    namesMatching: settingsOf(check).namesMatching,
    searchedName: searchedName(check),
  };
  const scored = scoreCheck(input);
  const summaries = summarize(check.type, input);
  const pending = rows.filter((r) => !isFinal(r));
  let status: CheckStatus;
  if (!pending.length) status = rows.some((r) => r.status === 'completed') ? 'completed' : 'error';
  else status = pending.some((r) => r.status === 'delayed') ? 'delayed' : 'in_progress';
  const finished = FINISHED.includes(status);
  Object.assign(check, {
    status,
    score: scored.score,
    idScore: scored.id_score,
    homonymScore: scored.homonym_score,
    // Only public result fields, none of them null: GET /v1/checks/{id} copies it as it is (RESULT_JSON_SQL).
    result: {
      scores: scored.scores,
      statuses: databaseStatuses(databases),
      ...(scored.homonym_probability !== null ? { homonym_probability: scored.homonym_probability } : {}),
      ...summaries,
    },
    updatedAt: now,
    ...(finished ? { finishedAt: now } : {}),
  });
  return finished;
}

/**
 * The `checks.check.finished` event of a settled, finished check, with the fields the
 * CheckFinishedExtensions that apply add (`extra`): the one way the engine builds it, whichever
 * step (start, collect, timer) finishes the check.
 */
export function finishCheck(
  check: CheckEntity,
  extra: Partial<CheckFinishedPayload> = {},
): OutgoingEvent<CheckFinishedPayload> {
  return {
    topic: TOPICS.checkFinished,
    type: CHECK_EVENT_TYPES.finished,
    tenantId: check.tenantId,
    aggregateId: check.id,
    payload: { ...extra, check: checkRecord(check) },
  };
}

/** The check's next timer: the next moment something is due (a database's expected answer time or the deadline). */
export function nextTimer(
  check: CheckEntity,
  rows: CheckDatabaseEntity[],
  now: Date,
): { payload: TimerJob; runAt: Date; dedupeKey: string } | null {
  const due = [
    ...rows
      .filter((r) => r.status === 'not_started' && r.expectedAt && r.expectedAt > now)
      .map((r) => r.expectedAt!.getTime()),
    ...(check.deadlineAt ? [Math.max(check.deadlineAt.getTime(), now.getTime())] : []),
  ];
  if (!due.length) return null;
  const at = Math.min(...due);
  return { payload: { check_id: check.id }, runAt: new Date(at), dedupeKey: `timer:${check.id}:${at}` };
}
