import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An identifier (document with country and type, phone, e-mail) that identity resolution gave to a
 * profile; each belongs to one live profile. Written by ProfileFoldingStore; read here.
 */
@Entity({ name: 'profile_identifiers' })
export class ProfileIdentifierEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  /** `<kind>:<value>`, e.g. `phone:+573001234567`, `document:CO:national-id:1020304050`. */
  @PrimaryColumn({ type: 'text' })
  key!: string;

  @Column({ type: 'text' })
  kind!: 'document' | 'phone' | 'email';

  @Column({ name: 'profile_id', type: 'text' })
  profileId!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
