import { rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

import { InboxEventRow } from './inbox-event';
import * as SQL from './inbox-event.sql';

/** A message's chat as the feed resolves it (MESSAGE_CHAT). */
export interface MessageChat {
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

  /** Appends one row, in commit order with every other writer; a replayed event (same id) adds nothing. */
  async append(values: unknown[]): Promise<boolean> {
    return this.dataSource.transaction(async (m: EntityManager) => {
      await rawQuery(this.dataSource, SQL.LOCK_WRITERS, [], m);
      const rows = await rawQuery(this.dataSource, SQL.INSERT, values, m);
      return rows.length > 0;
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

  /** The chat's owner now: undefined when the chat is unknown, null when it is queued. */
  async chatOwner(chatId: string, tenantId: string): Promise<string | null | undefined> {
    const [row] = await rawQuery<{ owner: string | null }>(this.dataSource, SQL.CHAT_OWNER, [chatId, tenantId]);
    return row?.owner;
  }

  async messageChat(messageId: string, tenantId: string): Promise<MessageChat | undefined> {
    const [row] = await rawQuery<MessageChat>(this.dataSource, SQL.MESSAGE_CHAT, [messageId, tenantId]);
    return row;
  }
}
