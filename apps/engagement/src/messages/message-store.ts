import { GroupCommit, OutboxRow, OutboxService, preparedQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { MessageEntity } from './message.entity';

/** A sent message to store, with its `engagement.message.sent` outbox row (built in the caller's request). */
export interface SentMessage {
  message: MessageEntity;
  event: OutboxRow;
}

/** Most messages stored by one statement. */
const MAX_BATCH = 200;
/** Statements storing messages at once; sends finished meanwhile wait and go together in the next. */
const MAX_IN_FLIGHT = 4;

/**
 * Stores messages ($1, a JSON array) and their events ($2) with one statement: one transaction, so
 * a message is never stored without its event nor an event without its message. Named (prepared
 * once per connection): it writes by key and reads no table, so its plan never depends on sizes.
 */
const storeSql = (outbox: OutboxService) => `WITH ins AS (
     INSERT INTO messages (id, tenant_id, direction, line_id, line_phone, phone, account_id, outbound_id, flow_id, campaign_id,
                           text, "values", status, error, provider_message_id, created_at, updated_at)
     SELECT r.id, r.tenant_id, r.direction, r.line_id, r.line_phone, r.phone, r.account_id, r.outbound_id, r.flow_id, r.campaign_id,
            r.text, r."values", r.status, r.error, r.provider_message_id, r.created_at, r.updated_at
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, tenant_id text, direction text, line_id text, line_phone text, phone text,
                                               account_id text, outbound_id text, flow_id text, campaign_id text, text text,
                                               "values" jsonb, status text, error text, provider_message_id text,
                                               created_at timestamptz, updated_at timestamptz)
     RETURNING id
   ), evt AS (
     ${outbox.insertSql('$2')}
   )
   SELECT count(*)::int AS stored FROM ins`;

/**
 * The write of an API send: the message row and its event. Concurrent sends are grouped (as the
 * checks service's creations): those finished while MAX_IN_FLIGHT statements run are stored
 * together by the next one, so many sends share one round trip, one commit and one WAL flush, and
 * the outbox relay is woken once for them.
 */
@Injectable()
export class MessageStore {
  private readonly text: string;
  private readonly writes: GroupCommit<SentMessage, void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {
    this.text = storeSql(outbox);
    this.writes = new GroupCommit((items) => this.store(items), { maxBatch: MAX_BATCH, maxInFlight: MAX_IN_FLIGHT });
  }

  /** Stores one message with its event, grouped with the concurrent ones; resolves once committed. */
  save(item: SentMessage): Promise<void> {
    return this.writes.submit(item);
  }

  private async store(items: SentMessage[]): Promise<void[]> {
    const messages = items.map(({ message: m }) => ({
      id: m.id,
      tenant_id: m.tenantId,
      direction: m.direction,
      line_id: m.lineId,
      line_phone: m.linePhone,
      phone: m.phone,
      account_id: m.accountId,
      outbound_id: m.outboundId,
      flow_id: m.flowId,
      campaign_id: m.campaignId,
      text: m.text,
      values: m.values,
      status: m.status,
      error: m.error,
      provider_message_id: m.providerMessageId,
      created_at: m.createdAt,
      updated_at: m.updatedAt,
    }));
    const [{ stored }] = await preparedQuery<{ stored: number }>(
      this.dataSource,
      'engagement:store-messages',
      this.text,
      [JSON.stringify(messages), JSON.stringify(items.map((i) => i.event))],
    );
    if (stored !== items.length) throw new Error(`stored ${stored} of ${items.length} messages`);
    this.outbox.committed();
    return items.map(() => undefined);
  }
}
