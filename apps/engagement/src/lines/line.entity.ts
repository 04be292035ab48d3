import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A business line: a phone number of the tenant's WABA (synced from the provider). */
@Entity({ name: 'lines' })
export class LineEntity {
  /** The provider's phone-number id. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'waba_id', type: 'text' })
  wabaId!: string;

  /** E.164, e.g. +573001234567. */
  @Column({ type: 'text' })
  phone!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ name: 'verified_name', type: 'text', nullable: true })
  verifiedName!: string | null;

  @Column({ type: 'text' })
  quality!: string;

  @Column({ name: 'default_flow_id', type: 'text', nullable: true })
  defaultFlowId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
