import { mapRow, preparedQuery, rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { ChatEntity } from './chat.entity';
import * as SQL from './chat.sql';

/**
 * The raw statements of chats and their activities, their SQL in chat.sql.ts.
 * Each method runs its statement on the manager it is given (the caller's transaction, or the data
 * source's manager) and answers what the driver answers (for an UPDATE/DELETE: [rows, affected]).
 */
@Injectable()
export class ChatStore {
  private run<T>(m: EntityManager, sql: string, values: unknown[]): Promise<T> {
    return rawQuery(m.connection, sql, values, m) as unknown as Promise<T>;
  }

  /** The open chat of a conversation a user's message joins, opened or locked (USER_MESSAGE_CHAT). */
  async userMessageChat(m: EntityManager, values: unknown[]): Promise<ChatEntity> {
    const [row] = await preparedQuery(m.connection, 'engagement:user-message-chat', SQL.USER_MESSAGE_CHAT, values, m);
    return mapRow(m.connection.getRepository(ChatEntity), row);
  }

  /** The tenant's ($1) open chats per line of these ($2). */
  openChatsByLine<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.OPEN_CHATS_BY_LINE, values);
  }

  /** The status_change activities of message status moves (STATUS_ACTIVITIES), a named prepared statement on m's connection. */
  async statusActivities(m: EntityManager, values: unknown[]): Promise<void> {
    await preparedQuery(m.connection, 'engagement:chat-status-activities', SQL.STATUS_ACTIVITIES, values, m);
  }

  /** A page of an export's rows (EXPORT_PAGE). */
  exportPage<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.EXPORT_PAGE, values);
  }
}
