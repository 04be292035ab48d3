import { randomUUID } from 'node:crypto';

import type { EventEnvelope } from '@kyc/contracts';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { signalCommit } from '../database/commit-signal';
import { currentRequestId } from '../observability/request-context.storage';

export interface OutgoingEvent<TPayload> {
  topic: string;
  type: string;
  version?: number;
  tenantId: string | null;
  aggregateId: string;
  /** null publishes a tombstone (removes the key from a compacted state topic). */
  payload: TPayload | null;
}

export interface OutboxRow {
  id: string;
  topic: string;
  message_key: string;
  type: string;
  tenant_id: string | null;
  envelope: EventEnvelope | null;
}

/**
 * The one way to publish: events are written to `<schema>.outbox` inside the transaction of the
 * state change they describe, and the relay sends them to Kafka after commit. Services never
 * call a Kafka producer themselves.
 */
@Injectable()
export class OutboxService {
  /** Builds the row (and envelope) for an event; exposed for single-statement inserts on hot paths. */
  row<T>(event: OutgoingEvent<T>): OutboxRow {
    const id = randomUUID();
    const envelope: EventEnvelope<T> | null =
      event.payload === null
        ? null
        : {
            id,
            type: event.type,
            version: event.version ?? 1,
            tenant_id: event.tenantId,
            occurred_at: new Date().toISOString(),
            aggregate_id: event.aggregateId,
            correlation_id: currentRequestId(),
            payload: event.payload,
          };
    return {
      id,
      topic: event.topic,
      message_key: event.aggregateId,
      type: event.type,
      tenant_id: event.tenantId,
      envelope,
    };
  }

  /**
   * Tells the relay that events were committed outside a TypeORM transaction (a single
   * autocommit statement), so it sends them now instead of at its next poll.
   */
  committed(): void {
    signalCommit();
  }

  /** Inserts events in the caller's transaction (`manager` must belong to it). */
  async add(manager: EntityManager, ...events: OutgoingEvent<unknown>[]): Promise<OutboxRow[]> {
    if (!events.length) return [];
    const rows = events.map((e) => this.row(e));
    const params: unknown[] = [];
    const values = rows.map((r) => {
      params.push(
        r.id,
        r.topic,
        r.message_key,
        r.type,
        r.tenant_id,
        r.envelope === null ? null : JSON.stringify(r.envelope),
      );
      const n = params.length;
      return `($${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n}::jsonb)`;
    });
    await manager.query(
      `INSERT INTO outbox (id, topic, message_key, type, tenant_id, envelope) VALUES ${values.join(', ')}`,
      params,
    );
    return rows;
  }
}
