import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A private signing key of the provider (RS256 JWK), sealed with PASS_SECRETS_KEY. */
@Entity({ name: 'signing_keys' })
export class SigningKeyEntity {
  @PrimaryColumn({ type: 'text' })
  kid!: string;

  @Column({ name: 'sealed_jwk', type: 'text' })
  sealedJwk!: string;

  /** The newest active key signs; retired keys are published for an overlap, then kept for the record. */
  @Column({ type: 'text' })
  status!: 'active' | 'retired';

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** When a newer key took over; the key stays in the key set for SIGNING_KEY_OVERLAP_S after it. */
  @Column({ name: 'retired_at', type: 'timestamptz', nullable: true })
  retiredAt!: Date | null;
}
