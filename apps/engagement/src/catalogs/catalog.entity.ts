import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A product catalog of a tenant; linked to its business account (WABA) and published to the provider. */
@Entity({ name: 'catalogs' })
export class CatalogEntity {
  /** A UUID (the spec requires a valid UUID as catalog id). */
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'provider_type', type: 'text' })
  providerType!: string;

  @Column({ type: 'text' })
  vertical!: string;

  /** The linked business account (WABA); null when unlinked. */
  @Column({ name: 'waba_id', type: 'text', nullable: true })
  wabaId!: string | null;

  /** The catalog's id at the provider, once published. */
  @Column({ name: 'provider_catalog_id', type: 'text', nullable: true })
  providerCatalogId!: string | null;

  /** The WABA the provider catalog is connected to (the last publish). */
  @Column({ name: 'published_waba_id', type: 'text', nullable: true })
  publishedWabaId!: string | null;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
