import { setTimeout as sleep } from 'node:timers/promises';

import type { EventEnvelope } from '@kyc/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { eventsConsumed } from '../observability/metrics';
import { ambientContext } from '../observability/request-context.storage';

export type InboxOutcome = 'processed' | 'duplicate' | 'parked';

export interface InboxOptions {
  attempts?: number;
  backoffMs?: number;
  /**
   * Errors the caller retries itself (a job that will run again later): rethrown at once, the
   * effect rolled back, without the in-place retries and without parking the event.
   */
  passThrough?: (err: unknown) => boolean;
}

/**
 * Idempotent consumption: the event id is recorded in `processed_messages` in the same
 * transaction as the effect, so a redelivered event is skipped and an effect never runs twice.
 * A failing effect is retried with backoff, then parked in `parked_messages` (poison message)
 * so the partition moves on.
 */
@Injectable()
export class InboxService {
  private readonly logger = new Logger('inbox');

  constructor(private readonly dataSource: DataSource) {}

  async handle<T>(
    consumer: string,
    envelope: EventEnvelope<T>,
    effect: (manager: EntityManager, event: EventEnvelope<T>) => Promise<void>,
    options: InboxOptions = {},
  ): Promise<InboxOutcome> {
    const attempts = options.attempts ?? 5;
    const backoff = options.backoffMs ?? 200;
    return ambientContext.run(
      { requestId: envelope.correlation_id ?? envelope.id, tenantId: envelope.tenant_id ?? undefined },
      async () => {
        let lastError: unknown;
        for (let attempt = 1; attempt <= attempts; attempt++) {
          try {
            const outcome = await this.dataSource.transaction(async (manager) => {
              const inserted = await manager.query<unknown[]>(
                `INSERT INTO processed_messages (event_id, consumer) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id`,
                [envelope.id, consumer],
              );
              if (!inserted.length) return 'duplicate' as const;
              await effect(manager, envelope);
              return 'processed' as const;
            });
            eventsConsumed.inc({ consumer, outcome });
            // One line per handled event, with the id of the request that caused it (docs/operations.md).
            this.logger.log({
              consumer,
              event_id: envelope.id,
              type: envelope.type,
              correlation_id: envelope.correlation_id ?? null,
              outcome,
              msg: 'event handled',
            });
            return outcome;
          } catch (err: unknown) {
            if (options.passThrough?.(err)) throw err;
            lastError = err;
            this.logger.warn({ err, consumer, event_id: envelope.id, attempt, msg: 'event handling failed' });
            if (attempt < attempts) await sleep(backoff * 2 ** (attempt - 1));
          }
        }
        await this.park(consumer, envelope, lastError, attempts);
        eventsConsumed.inc({ consumer, outcome: 'parked' });
        return 'parked';
      },
    );
  }

  /** Parks a poison message; retried until the database takes it, so it is never silently dropped. */
  private async park(
    consumer: string,
    envelope: EventEnvelope<unknown>,
    error: unknown,
    attempts: number,
  ): Promise<void> {
    for (let i = 0; ; i++) {
      try {
        await this.dataSource.query(
          `INSERT INTO parked_messages (consumer, topic, event_id, message, error, attempts) VALUES ($1, $2, $3, $4::jsonb, $5, $6)`,
          [
            consumer,
            envelope.type,
            envelope.id,
            JSON.stringify(envelope),
            String((error as Error)?.message ?? error),
            attempts,
          ],
        );
        this.logger.error({ consumer, event_id: envelope.id, msg: 'event parked after failed attempts' });
        return;
      } catch (err: unknown) {
        this.logger.error({ err, msg: 'cannot park message yet; retrying' });
        await sleep(Math.min(10_000, 500 * 2 ** i));
      }
    }
  }
}
