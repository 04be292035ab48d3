import { preparedQuery, rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

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

  /** Opens the chat of a conversation ($1 id, $2 tenant, $3 line, $4 line phone and queue, $5 contact phone, $6 name, $7 now) unless one is open: its id when it did. */
  insertOpen<T>(m: EntityManager, values: unknown[]): Promise<T> {
    return this.run<T>(m, SQL.INSERT_OPEN, values);
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
