import { rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

import { InboxEventRow, NewInboxEvent } from './inbox-event';
import * as SQL from './inbox-event.sql';

/** A message's chat as the feed resolves it (MESSAGE_CHATS). */
export interface MessageChat {
  message_id: string;
  activity_id: string;
  created_at: Date;
  actor_type: string;
  actor: string | null;
  text: string | null;
  message_status: string | null;
  chat_id: string;
  owner: string | null;
}

/** The raw statements of the inbox feed (table inbox_events), their SQL in inbox-event.sql.ts. */
@Injectable()
export class InboxEventStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Appends rows in order, in commit order with every other writer; a replayed event (same id) adds nothing. Answers how many were added. */
  async append(rows: NewInboxEvent[]): Promise<number> {
    if (!rows.length) return 0;
    const values = [
      rows.map((r) => r.event_id),
      rows.map((r) => r.tenant_id),
      rows.map((r) => r.chat_id),
      rows.map((r) => r.owner),
      rows.map((r) => r.previous_owner),
      rows.map((r) => r.type),
      rows.map((r) => JSON.stringify(r.data)),
      rows.map((r) => r.created_at),
    ];
    return this.dataSource.transaction(async (m: EntityManager) => {
      await rawQuery(this.dataSource, SQL.LOCK_WRITERS, [], m);
      return (await rawQuery(this.dataSource, SQL.INSERT, values, m)).length;
    });
  }

  after(seq: number, limit: number): Promise<InboxEventRow[]> {
    return rawQuery<InboxEventRow>(this.dataSource, SQL.AFTER, [seq, limit]);
  }

  async bounds(): Promise<{ head: number; oldest: number }> {
    const [row] = await rawQuery<{ head: string; oldest: string }>(this.dataSource, SQL.BOUNDS, []);
    return { head: Number(row.head), oldest: Number(row.oldest) };
  }

  async prune(before: Date): Promise<void> {
    await rawQuery(this.dataSource, SQL.PRUNE, [before]);
  }

  /** Chats' owners now (null: queued), with their tenants, by chat id. */
  async chatOwners(chatIds: string[]): Promise<Map<string, { tenant_id: string; owner: string | null }>> {
    if (!chatIds.length) return new Map();
    const rows = await rawQuery<{ id: string; tenant_id: string; owner: string | null }>(
      this.dataSource,
      SQL.CHAT_OWNERS,
      [chatIds],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** The chats of messages (each looked up within its tenant), by message id. */
  async messageChats(messages: { messageId: string; tenantId: string }[]): Promise<Map<string, MessageChat>> {
    if (!messages.length) return new Map();
    const rows = await rawQuery<MessageChat>(this.dataSource, SQL.MESSAGE_CHATS, [
      messages.map((x) => x.messageId),
      messages.map((x) => x.tenantId),
    ]);
    return new Map(rows.map((r) => [r.message_id, r]));
  }
}
