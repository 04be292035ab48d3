import {
  BUILT_IN_CHECK_TYPES,
  BuiltInCheckType,
  CHECK_EVENT_TYPES,
  CheckFinishedPayload,
  CheckStatus,
  DataSet,
  TOPICS,
} from '@kyc/contracts';
import { mapRow, OutgoingEvent, preparedQuery } from '@kyc/platform';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { CheckEntity } from '../../checks/check.entity';
import { checkRecord } from '../../checks/check.presenter';
import { CollectorRegistry } from '../../collectors/collector.registry';
import { CheckDatabaseEntity } from '../check-database.entity';
import { defaultMaxDurationMinutes, defaultWeights } from '../datasets';
import { CheckFinishedExtension, EffectiveSettings, Run, runRow, TimerJob } from '../engine.types';
import { CHECK_DATABASES_SQL, insertRunsSql, LOCK_CHECK_SQL } from '../engine-sql';
import { fullName } from '../names';
import { databaseStatuses, FINAL_DATABASE_STATUSES, scoreCheck, ScoredDatabase, summarize } from '../scoring';

export const FINISHED: readonly CheckStatus[] = ['completed', 'error'];
export const isFinal = (row: CheckDatabaseEntity) => FINAL_DATABASE_STATUSES.includes(row.status);

/** The name scoring compares name-only records with: the person's full name, else the company name. */
export function searchedName(check: Pick<CheckEntity, 'type' | 'inputs'>): string | null {
  const person = fullName(check.inputs.first_name, check.inputs.last_name);
  if (check.type === 'company') return check.inputs.company_name ?? null;
  return person || check.inputs.company_name || null;
}

/**
 * Settle: a check recomputed from its databases (status, scores, statuses, summary), finished with
 * its `checks.check.finished` event when every database is final (`completed` if one answered,
 * `error` if none did). The other steps (start, collect, timer) evaluate under the check's lock and
 * write the outcome with their own one statement.
 */
@Injectable()
export class SettleCheck {
  private readonly logger = new Logger('check-engine');
  private readonly defaults = new Map<string, Partial<Record<DataSet, number>>>();
  private readonly extensions: { extend: CheckFinishedExtension; appliesTo?: (check: CheckEntity) => boolean }[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: CollectorRegistry,
  ) {}

  /** Registers a CheckFinishedExtension; `appliesTo` tells which checks it extends (default: all). */
  extendFinished(extension: CheckFinishedExtension, appliesTo?: (check: CheckEntity) => boolean): void {
    this.extensions.push({ extend: extension, appliesTo });
  }

  /** Whether a CheckFinishedExtension applies to this check (its finish then needs a transaction). */
  extended(check: CheckEntity): boolean {
    return this.extensions.some((e) => !e.appliesTo || e.appliesTo(check));
  }

  /** The extensions' fields of a finishing check's event, in its transaction. */
  async finishedExtra(m: EntityManager, check: CheckEntity): Promise<Partial<CheckFinishedPayload>> {
    const extra: Partial<CheckFinishedPayload> = {};
    for (const { extend, appliesTo } of this.extensions)
      if (!appliesTo || appliesTo(check)) Object.assign(extra, await extend(m, check));
    return extra;
  }

  finishedEvent(check: CheckEntity, extra: Partial<CheckFinishedPayload>): OutgoingEvent<CheckFinishedPayload> {
    return {
      topic: TOPICS.checkFinished,
      type: CHECK_EVENT_TYPES.finished,
      tenantId: check.tenantId,
      aggregateId: check.id,
      payload: { ...extra, check: checkRecord(check) },
    };
  }

  logFinished(check: CheckEntity): void {
    this.logger.log({
      msg: 'check finished',
      check_id: check.id,
      tenant_id: check.tenantId,
      status: check.status,
      score: check.score,
    });
  }

  /** Weights a check scores with: its custom type's (copied at creation) or its built-in type's defaults in its country. */
  weightsOf(check: Pick<CheckEntity, 'type' | 'country' | 'weights'>): Partial<Record<DataSet, number>> {
    if (check.weights) return check.weights;
    if (!(BUILT_IN_CHECK_TYPES as readonly string[]).includes(check.type)) return {};
    const key = `${check.type}/${check.country}`;
    let w = this.defaults.get(key);
    if (!w) {
      w = defaultWeights(check.type as BuiltInCheckType, this.registry.candidates(check.country, check.type));
      this.defaults.set(key, w);
    }
    return w;
  }

  settingsOf(check: Pick<CheckEntity, 'country' | 'settings'>): EffectiveSettings {
    const retries = check.settings?.retries ?? false;
    return {
      retries,
      namesMatching: check.settings?.names_matching_type ?? 'soft',
      maxDurationMinutes: check.settings?.max_duration_minutes ?? defaultMaxDurationMinutes(check.country, retries),
    };
  }

  /** Computes the check's status, scores, statuses and summary from its databases (in memory). Returns true when it finished. */
  evaluate(check: CheckEntity, rows: CheckDatabaseEntity[], now: Date): boolean {
    const settings = this.settingsOf(check);
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
      weights: this.weightsOf(check),
      databases,
      namesMatching: settings.namesMatching,
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

  /** The check, locked, then its databases (in their order), in the caller's transaction. */
  async lockWithDatabases(
    m: EntityManager,
    checkId: string,
    tenantId: string,
  ): Promise<{ check: CheckEntity; rows: CheckDatabaseEntity[] } | null> {
    const [found] = await preparedQuery(this.dataSource, 'checks.engine.lock', LOCK_CHECK_SQL, [checkId, tenantId], m);
    if (!found) return null;
    const rows = await preparedQuery(
      this.dataSource,
      'checks.engine.databases',
      CHECK_DATABASES_SQL,
      [checkId, tenantId],
      m,
    );
    const databases = m.getRepository(CheckDatabaseEntity);
    return { check: mapRow(m.getRepository(CheckEntity), found), rows: rows.map((r) => mapRow(databases, r)) };
  }

  /** Runs of databases for the health dashboard (success, error or timeout, with their latency), in one statement. */
  async recordRuns(m: EntityManager, runs: Run[], now: Date): Promise<void> {
    if (!runs.length) return;
    await m.query(insertRunsSql('$1'), [JSON.stringify(runs.map((run) => runRow(run, now)))]);
  }

  /** The check's next timer: the next moment something is due (a database's expected answer time or the deadline). */
  timerJob(
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
}
