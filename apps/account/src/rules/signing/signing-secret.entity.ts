import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The tenant's webhook signing secret (sealed). After a rotation the previous secret keeps
 * signing alongside the new one until `previousValidUntil`.
 */
@Entity({ name: 'bre_signing_secrets' })
export class SigningSecretEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'sealed_secret', type: 'text' })
  sealedSecret!: string;

  @Column({ name: 'sealed_previous_secret', type: 'text', nullable: true })
  sealedPreviousSecret!: string | null;

  @Column({ name: 'previous_valid_until', type: 'timestamptz', nullable: true })
  previousValidUntil!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'rotated_at', type: 'timestamptz', nullable: true })
  rotatedAt!: Date | null;
}
