import type { CustomTypeCountry, DataSet } from '@kyc/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tenant's check type: which datasets are consulted (those with a weight) and how much each weighs. */
@Entity({ name: 'custom_types' })
export class CustomTypeEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  country!: CustomTypeCountry;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'jsonb' })
  weights!: Partial<Record<DataSet, number>>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
