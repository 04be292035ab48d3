import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Credentials of a tenant for a database that needs them. `secret` is AES-256-GCM ciphertext of {password, complements}. */
@Entity({ name: 'collector_credentials' })
export class CollectorCredentialEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @PrimaryColumn({ name: 'database_id', type: 'text' })
  databaseId!: string;

  @Column({ type: 'text' })
  username!: string;

  @Column({ type: 'text' })
  secret!: string;

  @Column({ name: 'has_complements', type: 'boolean' })
  hasComplements!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
