import { rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import * as SQL from './retention.sql';

/** Statements per run (a run stays short; the next hour continues). */
const MAX_BATCHES = 40;

/**
 * The pruning of engagement's append-only tables (webhook_events, outbound_quality_history) by the
 * retention job, its SQL in retention.sql.ts: batched deletes in the job's transaction.
 */
@Injectable()
export class RetentionStore {
  /** Deletes the webhook events older than the cutoff: how many. */
  pruneWebhookEvents(m: EntityManager, cutoff: Date): Promise<number> {
    return batches(m, SQL.PRUNE_WEBHOOK_EVENTS, [cutoff]);
  }

  /** Deletes the quality ratings older than the cutoff but each outbound's newest before it: how many. */
  pruneQualityHistory(m: EntityManager, cutoff: Date): Promise<number> {
    return batches(m, SQL.PRUNE_QUALITY_HISTORY, [cutoff]);
  }
}

async function batches(m: EntityManager, sql: string, params: unknown[]): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const [, affected] = (await rawQuery(m.connection, sql, params, m)) as unknown as [unknown, number];
    total += affected;
    if (affected < SQL.RETENTION_BATCH) break;
  }
  return total;
}
