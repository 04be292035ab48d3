import { Column, Entity, PrimaryColumn } from 'typeorm';

export const MEDIA_SLOTS = ['front', 'reverse', 'face_photo', 'video'] as const;
export type MediaSlot = (typeof MEDIA_SLOTS)[number];
export type MediaOwner = 'validation' | 'enrollment';

/** A file a validation or enrollment waits for (data null) or received. */
@Entity({ name: 'media' })
export class MediaEntity {
  @PrimaryColumn({ type: 'text' }) id!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ name: 'owner_kind', type: 'text' }) ownerKind!: MediaOwner;
  @Column({ name: 'owner_id', type: 'text' }) ownerId!: string;
  @Column({ type: 'text' }) slot!: MediaSlot;
  @Column({ name: 'content_type', type: 'text', nullable: true }) contentType!: string | null;
  @Column({ type: 'int', nullable: true }) size!: number | null;
  @Column({ type: 'bytea', nullable: true, select: false }) data!: Buffer | null;
  @Column({ name: 'uploaded_at', type: 'timestamptz', nullable: true }) uploadedAt!: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
