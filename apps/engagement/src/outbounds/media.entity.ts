import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A file uploaded to the provider for a media template's header. */
@Entity({ name: 'media' })
export class MediaEntity {
  /** The provider's media id (the `media_id` of an outbound). */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'line_id', type: 'text' })
  lineId!: string;

  @Column({ name: 'media_type', type: 'text' })
  mediaType!: 'IMAGE' | 'VIDEO' | 'DOCUMENT';

  @Column({ name: 'mime_type', type: 'text' })
  mimeType!: string;

  @Column({ name: 'size_bytes', type: 'integer' })
  sizeBytes!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
