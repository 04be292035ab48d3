import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tenant's messaging-provider account: its WABA and its sealed credentials (access token, app secret, verify token). */
@Entity({ name: 'provider_credentials' })
export class ProviderCredentialEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'waba_id', type: 'text' })
  wabaId!: string;

  /** AES-256-GCM sealed JSON {accessToken, appSecret, verifyToken}, bound to tenant and WABA. */
  @Column({ type: 'text' })
  sealed!: string;

  /** SHA-256 of the verify token: finds the account a GET verification handshake is for. */
  @Column({ name: 'verify_token_hash', type: 'text' })
  verifyTokenHash!: string;

  @Column({ name: 'subscribed_at', type: 'timestamptz', nullable: true })
  subscribedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
