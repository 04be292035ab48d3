import { delimitedRow, DelimitedValue } from '@kyc/platform';
import { DataSource } from 'typeorm';

import { EXPORT_PAGE_ROWS } from '../chats/chat.sql';
import { ChatStore } from '../chats/chat.store';
import { ChatExportEntity } from './chat-export.entity';
import { translate, TSV_HEADERS } from './tsv';

/** One TSV row through the platform's delimited writer (escaped, formulas neutralized). */
const tsvRow = (values: DelimitedValue[]) => delimitedRow('tsv', values);

interface Row {
  seq: string;
  chat_id: string;
  line_phone: string;
  contact_phone: string;
  contact_name: string | null;
  owner: string | null;
  status: string;
  created_at: Date;
  actor_type: string;
  actor: string | null;
  activity_type: string;
  text: string | null;
  message_status: string | null;
}

/**
 * The TSV of an export: a header in the export's language, then one row per message or note of
 * the chats (one chat, or all) created within the months of the range, in chat and time order.
 * Cells are written by the platform's delimited writer: what users typed can never become a live
 * formula in the reader's spreadsheet (a cell starting with = + - @ gets a leading ').
 */
export async function buildExportTsv(
  store: ChatStore,
  dataSource: DataSource,
  e: ChatExportEntity,
): Promise<{ content: string; rows: number }> {
  const lines = [tsvRow(TSV_HEADERS[e.language])];
  let after = '0';
  for (;;) {
    const batch = await store.exportPage<Row[]>(dataSource.manager, [
      e.tenantId,
      e.rangeStart,
      e.rangeEnd,
      e.chatId,
      after,
    ]);
    for (const r of batch)
      lines.push(
        tsvRow([
          r.chat_id,
          r.line_phone,
          r.contact_phone,
          r.contact_name,
          r.owner,
          translate(e.language, r.status),
          new Date(r.created_at).toISOString(),
          translate(e.language, r.actor_type),
          r.actor,
          translate(e.language, r.activity_type),
          r.text,
          translate(e.language, r.message_status),
        ]),
      );
    if (batch.length < EXPORT_PAGE_ROWS) break;
    after = batch[batch.length - 1].seq;
  }
  return { content: `${lines.join('\n')}\n`, rows: lines.length - 1 };
}
