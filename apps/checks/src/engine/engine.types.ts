import type { CheckFinishedPayload, NamesMatchingType } from '@kyc/contracts';
import type { EntityManager } from 'typeorm';

import type { CollectorAnswer } from '../collectors/collector';
import type { CheckEntity } from './check.entity';
import type { CheckDatabaseEntity } from './check-database.entity';

/** Start jobs, queued only by replicas of the previous version (before ChecksStartWithoutJob). */
export const START_QUEUE = 'checks.start';
/** The checks waiting to start, claimed from checks itself (CheckRunStore.startSource). */
export const WAITING_START_QUEUE = 'checks.start.waiting';
export const COLLECT_QUEUE = 'checks.collect';
export const TIMER_QUEUE = 'checks.timer';

export interface StartJob {
  check_id: string;
}
export interface CollectJob {
  check_id: string;
  database_row_id: string;
}
export interface TimerJob {
  check_id: string;
}

export interface EffectiveSettings {
  maxDurationMinutes: number;
  retries: boolean;
  namesMatching: NamesMatchingType;
}

/**
 * Adds fields to the `checks.check.finished` event of a finishing check, in the transaction that
 * finishes it (continuous checks add their run: continuous_check_id, score_change, ...).
 */
export type CheckFinishedExtension = (
  m: EntityManager,
  check: CheckEntity,
) => Promise<Partial<Omit<CheckFinishedPayload, 'check'>>>;

/** A database's outcome as the engine records it. */
export type DatabaseOutcome = CollectorAnswer | { kind: 'failure'; message: string };

export type RunOutcome = 'success' | 'error' | 'timeout';

/** A database's outcome for the health dashboard. */
export interface Run {
  row: CheckDatabaseEntity;
  outcome: RunOutcome;
}

/** A collector run as the statements insert it (insertRunsSql). */
export interface RunRow {
  database_id: string;
  country: string;
  tenant_id: string;
  check_id: string;
  outcome: RunOutcome;
  latency_ms: number;
  finished_at: Date;
}

/** A run as its row: its latency is the database's answer time so far. */
export const runRow = ({ row, outcome }: Run, now: Date): RunRow => ({
  database_id: row.databaseId,
  country: row.country,
  tenant_id: row.tenantId,
  check_id: row.checkId,
  outcome,
  latency_ms: Math.max(0, now.getTime() - (row.requestedAt ?? now).getTime()),
  finished_at: now,
});
