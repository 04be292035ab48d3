import { Column, Entity, PrimaryColumn } from 'typeorm';

export const TRANSACTION_PRODUCTS = ['check', 'process', 'validation', 'engagement-chat', 'profile'] as const;
export type TransactionProduct = (typeof TRANSACTION_PRODUCTS)[number];

/**
 * One check, process, validation or chat of a profile (one row per source record: a later event
 * of the same record updates it, an older one arriving late does not).
 */
@Entity({ name: 'transactions' })
export class TransactionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'profile_id', type: 'text' })
  profileId!: string;

  @Column({ type: 'text' })
  product!: TransactionProduct;

  /** check_id, process_id, validation_id, enrollment_id or chat_id. */
  @Column({ name: 'source_id', type: 'text' })
  sourceId!: string;

  @Column({ name: 'event_type', type: 'text' })
  eventType!: string;

  @Column({ type: 'text', nullable: true })
  status!: string | null;

  @Column({ type: 'double precision', nullable: true })
  score!: number | null;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @Column({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
