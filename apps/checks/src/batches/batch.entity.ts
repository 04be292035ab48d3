import type { CheckCountry } from '@kyc/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * States: created (link issued) -> file_uploaded (first file accepted) -> processing (start) ->
 * completed (every row created or failed). stopped: PUT /v1/batches/{id} before completion
 * (remaining rows are not created). failed: the stored file could not be read at start.
 */
export const BATCH_STATUSES = ['created', 'file_uploaded', 'processing', 'stopped', 'completed', 'failed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
export const REPORT_FORMATS = ['xlsx', 'csv', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

@Entity({ name: 'batches' })
export class BatchEntity {
  @PrimaryColumn({ type: 'text' }) id!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ type: 'text' }) service!: string;
  @Column({ type: 'text' }) country!: CheckCountry;
  @Column({ type: 'text' }) type!: string;
  @Column({ name: 'end_date', type: 'date', nullable: true }) endDate!: string | null;
  @Column({ type: 'text', nullable: true }) frequency!: string | null;
  /** Input name per zero-based column index (null: column ignored). */
  @Column({ type: 'jsonb' }) columns!: (string | null)[];
  @Column({ type: 'text' }) status!: BatchStatus;
  @Column({ name: 'created_by', type: 'text' }) createdBy!: string;
  /** API key version of the creator: rows are validated as its checks would be (user_authorized). */
  @Column({ name: 'key_version', type: 'int' }) keyVersion!: number;
  @Column({ name: 'upload_expires_at', type: 'timestamptz' }) uploadExpiresAt!: Date;
  @Column({ name: 'file_uploaded_at', type: 'timestamptz', nullable: true }) fileUploadedAt!: Date | null;
  @Column({ name: 'file_size', type: 'int', nullable: true }) fileSize!: number | null;
  /** Files sent to the upload link (each refused one counts; CHECKS_BATCH_UPLOAD_ATTEMPTS spend the link). */
  @Column({ name: 'upload_attempts', type: 'int', default: 0 }) uploadAttempts!: number;
  @Column({ name: 'rows_total', type: 'int', default: 0 }) rowsTotal!: number;
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ name: 'report_format', type: 'text', nullable: true }) reportFormat!: ReportFormat | null;
  @Column({ name: 'report_status', type: 'text', nullable: true }) reportStatus!: 'generating' | 'ready' | null;
  @Column({ name: 'report_requested_at', type: 'timestamptz', nullable: true }) reportRequestedAt!: Date | null;
  @Column({ name: 'report_generated_at', type: 'timestamptz', nullable: true }) reportGeneratedAt!: Date | null;
  @Column({ type: 'bytea', nullable: true, select: false }) report!: Buffer | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  @Column({ name: 'started_at', type: 'timestamptz', nullable: true }) startedAt!: Date | null;
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true }) finishedAt!: Date | null;
}
