import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A file staged for an approval request (sandbox object store: the bytes live in Postgres). */
@Entity({ name: 'approval_attachments' })
export class ApprovalAttachmentEntity {
  @PrimaryColumn({ name: 's3_key', type: 'text' })
  s3Key!: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ name: 'login_hint', type: 'text' })
  loginHint!: string;

  @Column({ name: 'file_name', type: 'text' })
  fileName!: string;

  @Column({ name: 'content_type', type: 'text' })
  contentType!: string;

  @Column({ name: 'upload_expires_at', type: 'timestamptz' })
  uploadExpiresAt!: Date;

  @Column({ type: 'bytea', nullable: true, select: false })
  content!: Buffer | null;

  @Column({ type: 'integer', nullable: true })
  size!: number | null;

  @Column({ name: 'uploaded_at', type: 'timestamptz', nullable: true })
  uploadedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
