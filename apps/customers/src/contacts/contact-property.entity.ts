import { Column, Entity, PrimaryColumn } from 'typeorm';

export const CONTACT_PROPERTY_TYPES = ['string', 'int', 'boolean', 'date', 'email', 'enum'] as const;
export type ContactPropertyType = (typeof CONTACT_PROPERTY_TYPES)[number];

/** A custom property of a tenant's contacts; its values live in each contact's custom_property_values. */
@Entity({ name: 'contact_properties' })
export class ContactPropertyEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  type!: ContactPropertyType;

  @Column({ name: 'enum_values', type: 'text', array: true, nullable: true })
  enumValues!: string[] | null;

  @Column({ type: 'boolean' })
  hidden!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
