import { GroupCommit, mapRow, OutboxRow, OutboxService, OutgoingEvent, preparedQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { MessageEntity } from './message.entity';
import { KNOWS_PROVIDER_ID_SQL, STATUS_MESSAGES_SQL, STATUS_UPDATES_SQL, storeMessagesSql } from './message.sql';

/** A message to store, with its outbox row when it has an event (built in the caller's request). */
export interface NewMessage {
  message: MessageEntity;
  event?: OutboxRow;
}

/** A message as a status moved it. */
export type StatusMove = Pick<
  MessageEntity,
  'id' | 'tenantId' | 'status' | 'error' | 'providerMessageId' | 'updatedAt'
>;

/** Most messages stored by one statement. */
const MAX_BATCH = 200;
/** Statements storing messages at once; sends finished meanwhile wait and go together in the next. */
const MAX_IN_FLIGHT = 4;

/**
 * The messages' store: the one writer of the messages table and of the events written with a
 * message, each write one statement of message.sql.ts (a message is never stored without its
 * event nor an event without its message). Every message goes through it: API sends, chat and
 * campaign sends, inbound messages, and the statuses the provider reports.
 *
 * API sends are grouped (as the checks service's creations): those finished while MAX_IN_FLIGHT
 * statements run are stored together by the next one, so many sends share one round trip, one
 * commit and one WAL flush, and the outbox relay is woken once for them.
 */
@Injectable()
export class MessageStore {
  private readonly text: string;
  private readonly writes: GroupCommit<NewMessage, void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {
    this.text = storeMessagesSql(outbox);
    this.writes = new GroupCommit<NewMessage, void>(
      async (items) => {
        await this.insert(items);
        this.outbox.committed();
        return items.map(() => undefined);
      },
      { maxBatch: MAX_BATCH, maxInFlight: MAX_IN_FLIGHT },
    );
  }

  /** Stores one message with its event, grouped with the concurrent ones; resolves once committed. */
  save(item: NewMessage): Promise<void> {
    return this.writes.submit(item);
  }

  /** Stores messages with their events in one statement: in the caller's transaction with `m`, else alone. */
  async insert(items: NewMessage[], m?: EntityManager): Promise<void> {
    const messages = items.map(({ message: x }) => ({
      id: x.id,
      tenant_id: x.tenantId,
      direction: x.direction,
      line_id: x.lineId,
      line_phone: x.linePhone,
      phone: x.phone,
      account_id: x.accountId,
      outbound_id: x.outboundId,
      flow_id: x.flowId,
      campaign_id: x.campaignId,
      text: x.text,
      values: x.values,
      status: x.status,
      error: x.error,
      provider_message_id: x.providerMessageId,
      created_at: x.createdAt,
      updated_at: x.updatedAt,
    }));
    const [{ stored }] = await preparedQuery<{ stored: number }>(
      this.dataSource,
      'engagement:store-messages',
      this.text,
      [JSON.stringify(messages), JSON.stringify(items.flatMap((i) => (i.event ? [i.event] : [])))],
      m,
    );
    if (stored !== items.length) throw new Error(`stored ${stored} of ${items.length} messages`);
  }

  /**
   * The messages statuses name, by our references or the provider's ids, of a tenant, locked in id
   * order in the caller's transaction (only the columns a status changes or is matched by).
   */
  async lockForStatuses(
    m: EntityManager,
    tenantId: string,
    references: string[],
    providerIds: string[],
  ): Promise<StatusMove[]> {
    const rows = await preparedQuery(
      this.dataSource,
      'engagement:status-messages',
      STATUS_MESSAGES_SQL,
      [references, providerIds, tenantId],
      m,
    );
    const repository = this.dataSource.getRepository(MessageEntity);
    return rows.map((row) => mapRow(repository, row));
  }

  /** Moves messages to new statuses with their status-changed events, in the caller's transaction. */
  async moveStatuses(m: EntityManager, changed: StatusMove[], events: OutgoingEvent<unknown>[]): Promise<void> {
    await preparedQuery(
      this.dataSource,
      'engagement:status-updates',
      STATUS_UPDATES_SQL,
      [
        changed.map((x) => x.id),
        changed.map((x) => x.status),
        changed.map((x) => x.error),
        changed.map((x) => x.updatedAt),
      ],
      m,
    );
    await this.outbox.add(m, ...events);
  }

  /** Whether a message with this provider id is stored (in any tenant: provider ids are unique). */
  async knowsProviderId(m: EntityManager, providerMessageId: string): Promise<boolean> {
    const rows = await preparedQuery(
      this.dataSource,
      'engagement:knows-provider-id',
      KNOWS_PROVIDER_ID_SQL,
      [providerMessageId],
      m,
    );
    return rows.length > 0;
  }

  /** A message of the tenant by the provider's id (ids in webhooks come from outside: never looked up across tenants). */
  findByProviderId(m: EntityManager, tenantId: string, providerMessageId: string): Promise<MessageEntity | null> {
    return m.findOneBy(MessageEntity, { tenantId, providerMessageId });
  }

  /** A message of the tenant. */
  findOne(tenantId: string, id: string): Promise<MessageEntity | null> {
    return this.dataSource.manager.findOneBy(MessageEntity, { id, tenantId });
  }
}
