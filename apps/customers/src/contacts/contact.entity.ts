import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A contact of a tenant: a phone number or an external id, linked to the customer profile sharing its phone. */
@Entity({ name: 'contacts' })
export class ContactEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'phone_number', type: 'text', nullable: true })
  phoneNumber!: string | null;

  @Column({ name: 'external_id', type: 'text', nullable: true })
  externalId!: string | null;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  /** property id → typed value (string, integer, boolean, `YYYY-MM-DD`, e-mail, enum value). */
  @Column({ name: 'custom_property_values', type: 'jsonb' })
  customPropertyValues!: Record<string, string | number | boolean>;

  @Column({ name: 'profile_id', type: 'text', nullable: true })
  profileId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
