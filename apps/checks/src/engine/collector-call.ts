import { Logger } from '@nestjs/common';

import {
  Collector,
  CollectorContext,
  CollectorCredentials,
  CollectorError,
  CollectorOutcome,
} from '../collectors/collector';
import type { CollectorRegistry } from '../collectors/collector.registry';
import type { CheckEntity } from './check.entity';
import type { CheckDatabaseEntity } from './check-database.entity';
import { effectiveInputs } from './effective-inputs';
import type { EffectiveSettings } from './engine.types';

const logger = new Logger('check-engine');

export type AskResult =
  | { kind: 'outcome'; outcome: CollectorOutcome }
  | { kind: 'failed'; error: unknown; message: string; permanent: boolean };

/** Delay before retry n (1-based) of a failed database when settings have `retries`: 15 s doubling, at most 10 minutes. */
export const collectBackoffMs = (n: number) => Math.min(10 * 60_000, 15_000 * 2 ** (n - 1));

/** Attempts of a collect job: unbounded in practice with `retries` (the timer expires the database). */
export const collectAttempts = (settings: EffectiveSettings) => (settings.retries ? 10_000 : 5);

export const missingCredentials = (databaseId: string) =>
  `no credentials stored for ${databaseId}: add them with POST /v1/config/credentials/${databaseId}`;

/** Runs a collector call with a deadline (a hung source must not hold the job past its lock). */
async function withTimeout<T>(run: (signal: AbortSignal) => Promise<T>, ms: number, what: string): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      run(controller.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new CollectorError(`${what} did not answer within ${ms} ms`));
        }, ms);
        timer.unref();
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** One query of a database, with the call's deadline (`timeoutMs`); failures are returned, not thrown. */
export async function askDatabase(
  collector: Collector,
  check: CheckEntity,
  row: CheckDatabaseEntity,
  call: { now: Date; attempt: number; credentials?: CollectorCredentials; timeoutMs: number },
): Promise<AskResult> {
  const ctx = (signal: AbortSignal): CollectorContext => ({
    checkId: check.id,
    tenantId: check.tenantId,
    country: check.country,
    type: check.type,
    inputs: effectiveInputs(check.inputs, check.region),
    search: row.searchBy ?? 'id',
    reference: row.reference,
    requestedAt: row.requestedAt ?? call.now,
    now: call.now,
    attempt: call.attempt,
    credentials: call.credentials,
    signal,
  });
  try {
    return {
      kind: 'outcome',
      outcome: await withTimeout((signal) => collector.collect(ctx(signal)), call.timeoutMs, collector.databaseName),
    };
  } catch (err: unknown) {
    if (!(err instanceof CollectorError))
      logger.warn({ err, database_id: row.databaseId, check_id: check.id, msg: 'collector failed unexpectedly' });
    return {
      kind: 'failed',
      error: err,
      message: err instanceof Error ? err.message : String(err),
      permanent: err instanceof CollectorError ? err.permanent : false,
    };
  }
}

/** Whether the start job asks this database itself: synchronous, no credentials or first-ask delay, answering within `maxMs`. */
export function asksInline(
  registry: CollectorRegistry,
  maxMs: number,
  check: Pick<CheckEntity, 'country' | 'type' | 'region'>,
  databaseId: string,
): boolean {
  const collector = registry.get(databaseId);
  if (!maxMs || !collector || collector.webhookType || collector.needsCredentials || !collector.answerLatencyMs)
    return false;
  const c = { country: check.country, type: check.type, region: check.region };
  return (collector.firstAskDelayMs?.(c) ?? 0) <= 0 && collector.answerLatencyMs(c) <= maxMs;
}
