import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A custom check type of the checks service, as its `checks.custom-type.*` events described it. */
@Entity({ name: 'custom_types' })
export class CustomTypeEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @PrimaryColumn({ type: 'text' }) country!: string;
  /** The type's name (what a document validation's `custom_type` names). */
  @PrimaryColumn({ type: 'text' }) type!: string;
  /** The checks service's id of the type: a deletion removes only the type it names. */
  @Column({ name: 'config_id', type: 'text' }) configId!: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
