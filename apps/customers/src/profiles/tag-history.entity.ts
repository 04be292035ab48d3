import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tag added to (or removed from) a profile, and the event that did it. Append-only. */
@Entity({ name: 'tag_history' })
export class TagHistoryEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'profile_id', type: 'text' })
  profileId!: string;

  @Column({ type: 'text' })
  tag!: string;

  @Column({ type: 'text' })
  action!: 'added' | 'removed';

  /** The event type that changed the tag. */
  @Column({ type: 'text' })
  source!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
