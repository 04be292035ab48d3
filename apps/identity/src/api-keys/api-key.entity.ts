import type { ApiKeyType } from '@kyc/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** An issued API key. The token itself is not stored: it is a signed JWT the client keeps. */
@Entity({ name: 'api_keys' })
@Index('api_keys_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ name: 'key_type', type: 'text' })
  keyType!: ApiKeyType;

  @Column({ type: 'int' })
  version!: 0 | 1;

  @Column({ type: 'text', nullable: true })
  grant!: string | null;

  @Column({ name: 'flow_id', type: 'text', nullable: true })
  flowId!: string | null;

  @Column({ type: 'text', nullable: true })
  country!: string | null;

  @Column({ name: 'document_type', type: 'text', nullable: true })
  documentType!: string | null;

  @Column({ name: 'redirect_url', type: 'text', nullable: true })
  redirectUrl!: string | null;

  @Column({ name: 'account_id', type: 'text', nullable: true })
  accountId!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  emails!: string[] | null;

  @Column({ type: 'jsonb', nullable: true })
  phones!: string[] | null;

  @Column({ name: 'billing_hub', type: 'text', nullable: true })
  billingHub!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
