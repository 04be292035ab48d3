import { randomUUID } from 'node:crypto';

import type { EventEnvelope } from '@kyc/contracts';
import { Injectable, Optional } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { signalCommit } from '../database/commit-signal';
import { currentRequestId } from '../observability/request-context.storage';
import { captureTraceContext, TraceCarrier, tracingActive } from '../observability/trace-context';
import { Clock } from '../time/clock';

export interface OutgoingEvent<TPayload> {
  topic: string;
  type: string;
  version?: number;
  tenantId: string | null;
  aggregateId: string;
  /** null publishes a tombstone (removes the key from a compacted state topic). */
  payload: TPayload | null;
  /**
   * The trace context the event continues (stored in the row's `headers`, sent as Kafka headers).
   * Default: the active one when `row`/`add` is called; a caller that builds rows for others (a
   * grouped statement) passes the one it captured in each caller's context.
   */
  traceContext?: TraceCarrier | null;
}

export interface OutboxRow {
  id: string;
  topic: string;
  message_key: string;
  type: string;
  tenant_id: string | null;
  envelope: EventEnvelope | null;
  /** The W3C trace context (traceparent, tracestate) when tracing is on; the relay sends it as Kafka headers. */
  headers?: TraceCarrier;
}

/**
 * The columns of an OutboxRow as a record definition (`json_to_recordset(...) AS e(...)`): the
 * envelope as `json`, so its JSON text is stored as the service wrote it, never converted.
 */
const OUTBOX_RECORD = 'id uuid, topic text, message_key text, type text, tenant_id text, envelope json';

/**
 * The one way to publish: events are written to `<schema>.outbox` inside the transaction of the
 * state change they describe, and the relay sends them to Kafka after commit. Services never
 * call a Kafka producer themselves, nor write the outbox table: `add` inserts events in the
 * caller's transaction; `insertSql` is the same insert as a part of a caller's own statement.
 */
@Injectable()
export class OutboxService {
  /** occurred_at comes from the service's Clock (a plain `new OutboxService()` uses the system's). */
  constructor(@Optional() private readonly clock?: Clock) {}

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
            occurred_at: (this.clock?.now() ?? new Date()).toISOString(),
            aggregate_id: event.aggregateId,
            correlation_id: currentRequestId(),
            payload: event.payload,
          };
    const row: OutboxRow = {
      id,
      topic: event.topic,
      message_key: event.aggregateId,
      type: event.type,
      tenant_id: event.tenantId,
      envelope,
    };
    if (tracingActive()) {
      const trace = event.traceContext === undefined ? captureTraceContext() : event.traceContext;
      if (trace) row.headers = trace;
    }
    return row;
  }

  /**
   * Tells the relay that events were committed outside a TypeORM transaction (a single
   * autocommit statement), so it sends them now instead of at its next poll. `writeQuery` does
   * this for the statements it runs.
   */
  committed(): void {
    signalCommit();
  }

  /** Inserts events in the caller's transaction (`manager` must belong to it). */
  async add(manager: EntityManager, ...events: OutgoingEvent<unknown>[]): Promise<OutboxRow[]> {
    if (!events.length) return [];
    const rows = events.map((e) => this.row(e));
    // The trace context column only when tracing runs: without it the statement is the one it always was.
    const traced = tracingActive();
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
      if (traced) params.push(JSON.stringify(r.headers ?? {}));
      const n = params.length;
      return traced
        ? `($${n - 6}, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}::json, $${n}::jsonb)`
        : `($${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n}::json)`;
    });
    await manager.query(
      `INSERT INTO outbox (id, topic, message_key, type, tenant_id, envelope${traced ? ', headers' : ''}) VALUES ${values.join(', ')}`,
      params,
    );
    return rows;
  }

  /**
   * The INSERT of events into the outbox, for a data-modifying WITH of the caller's own statement
   * (the state change and its events in one statement): `eventsParam` is the placeholder (`$4`)
   * of a bound JSON array of OutboxRow (`JSON.stringify` of `row()` results); `where` optionally
   * keeps some of them (over the alias `e`, e.g. `e.message_key IN (SELECT id FROM ins)`).
   * When tracing runs (decided at process start, before services build their statements) it
   * also stores each row's trace context in `headers`.
   */
  insertSql(eventsParam: string, where?: string): string {
    const traced = tracingActive();
    return `INSERT INTO outbox (id, topic, message_key, type, tenant_id, envelope${traced ? ', headers' : ''})
    SELECT e.id, e.topic, e.message_key, e.type, e.tenant_id, e.envelope${traced ? `, COALESCE(e.headers, '{}')` : ''}
      FROM json_to_recordset(${eventsParam}::json) AS e(${OUTBOX_RECORD}${traced ? ', headers jsonb' : ''})${where ? ` WHERE ${where}` : ''}`;
  }
}
