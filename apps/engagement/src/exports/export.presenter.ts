import { ChatExportEntity } from './chat-export.entity';
import { ExportResponse } from './dto/export.response';

const yearMonth = (d: Date) => d.toISOString().slice(0, 7);

export const presentExport = (e: ChatExportEntity, link?: { url: string; expires_at: string }): ExportResponse => ({
  export_id: e.id,
  name: e.name,
  export_type: e.exportType,
  export_format: e.exportFormat,
  language: e.language,
  chat_id: e.chatId,
  time_range_start_date: yearMonth(e.rangeStart),
  // The range is stored up to the first instant after the last month.
  time_range_end_date: yearMonth(new Date(e.rangeEnd.getTime() - 1)),
  requested_by: e.requestedBy,
  status: e.status,
  rows: e.rows,
  ...(link ? { download_url: link.url, download_expires_at: link.expires_at } : {}),
  creation_date: e.createdAt.toISOString(),
  completed_at: e.completedAt ? e.completedAt.toISOString() : null,
});
