import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'tenants' })
export class TenantEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  /** Billing hubs of the tenant (uppercase); users must name one when the list is not empty. */
  @Column({ name: 'billing_hubs', type: 'text', array: true, default: () => `'{}'` })
  billingHubs!: string[];

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
