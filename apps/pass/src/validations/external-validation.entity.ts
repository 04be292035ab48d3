import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A validation done outside pass, written through POST /v1/oauth2/validations (append-only). */
@Entity({ name: 'external_validations' })
export class ExternalValidationEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  type!: 'document' | 'face';

  @Column({ name: 'resource_id', type: 'text' })
  resourceId!: string;

  @Column({ type: 'boolean' })
  verified!: boolean;

  @Column({ name: 'resource_url', type: 'text', nullable: true })
  resourceUrl!: string | null;

  @Column({ name: 'process_id', type: 'text', nullable: true })
  processId!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  document!: Record<string, string> | null;

  @Column({ type: 'jsonb', nullable: true })
  face!: Record<string, string> | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
