import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Kinds of generated files of a process (spec 2, File generation). */
export type ProcessFileKind = 'pdf' | 'video-call-recordings';

/** requested → in_progress → ready (spec 2, File generation); failed when generation cannot succeed. */
export type ProcessFileStatus = 'requested' | 'in_progress' | 'ready' | 'failed';

/** A generated file of a process: the process PDF (one per process and kind, generated once). */
@Entity({ name: 'process_files' })
@Index('process_files_process_kind_idx', ['processId', 'kind'], { unique: true })
export class ProcessFileEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'process_id', type: 'text' })
  processId!: string;

  @Column({ type: 'text' })
  kind!: ProcessFileKind;

  @Column({ type: 'text' })
  status!: ProcessFileStatus;

  @Column({ name: 'content_type', type: 'text', nullable: true })
  contentType!: string | null;

  @Column({ type: 'bytea', nullable: true })
  content!: Buffer | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
