import { Column, Entity, PrimaryColumn } from 'typeorm';

export const AVAILABILITIES = ['in stock', 'out of stock', 'preorder', 'available for order', 'discontinued'] as const;
export type Availability = (typeof AVAILABILITIES)[number];
export const CONDITIONS = ['new', 'refurbished', 'used'] as const;
export type Condition = (typeof CONDITIONS)[number];
/**
 * PENDING: added or changed since the last publish; SYNCED: the provider has this version;
 * MARKED_FOR_DELETION: removed at the next publish; FAILED: the provider refused the item (sync_error).
 */
export const SYNC_STATUSES = ['PENDING', 'SYNCED', 'MARKED_FOR_DELETION', 'FAILED'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

/** A product of a catalog, referenced by its retailer id (unique within the catalog). */
@Entity({ name: 'catalog_products' })
export class CatalogProductEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'catalog_id', type: 'uuid' })
  catalogId!: string;

  @Column({ name: 'retailer_id', type: 'text' })
  retailerId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  /** In minor units (cents) of `currency`, as the provider takes prices. */
  @Column({
    name: 'price_minor',
    type: 'bigint',
    transformer: { to: (v: number) => v, from: (v: string) => Number(v) },
  })
  priceMinor!: number;

  @Column({ type: 'text' })
  currency!: string;

  @Column({ type: 'text' })
  availability!: Availability;

  @Column({ type: 'text', nullable: true })
  brand!: string | null;

  @Column({ type: 'text' })
  condition!: Condition;

  @Column({ name: 'image_url', type: 'text', nullable: true })
  imageUrl!: string | null;

  @Column({ type: 'text', nullable: true })
  url!: string | null;

  @Column({ name: 'sync_status', type: 'text' })
  syncStatus!: SyncStatus;

  @Column({ name: 'sync_error', type: 'text', nullable: true })
  syncError!: string | null;

  @Column({ name: 'synced_at', type: 'timestamptz', nullable: true })
  syncedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
