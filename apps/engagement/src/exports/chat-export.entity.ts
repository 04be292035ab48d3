import { Column, Entity, PrimaryColumn } from 'typeorm';

export const EXPORT_TYPES = ['all_chats', 'single_chat'] as const;
export const EXPORT_LANGUAGES = ['en', 'es', 'pt'] as const;
export type ExportLanguage = (typeof EXPORT_LANGUAGES)[number];
export const EXPORT_FORMATS = ['tsv'] as const;
export type ExportStatus = 'pending' | 'completed' | 'failed';

/** A TSV export of chats over whole months, written by a durable job. */
@Entity({ name: 'chat_exports' })
export class ChatExportEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ name: 'export_type', type: 'text' })
  exportType!: (typeof EXPORT_TYPES)[number];

  @Column({ name: 'export_format', type: 'text' })
  exportFormat!: string;

  @Column({ type: 'text' })
  language!: ExportLanguage;

  @Column({ name: 'chat_id', type: 'text', nullable: true })
  chatId!: string | null;

  /** First instant of the start month. */
  @Column({ name: 'range_start', type: 'timestamptz' })
  rangeStart!: Date;

  /** First instant after the end month. */
  @Column({ name: 'range_end', type: 'timestamptz' })
  rangeEnd!: Date;

  @Column({ name: 'requested_by', type: 'text' })
  requestedBy!: string;

  @Column({ type: 'text' })
  status!: ExportStatus;

  @Column({ type: 'integer', nullable: true })
  rows!: number | null;

  @Column({ type: 'text', nullable: true, select: false })
  content!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
