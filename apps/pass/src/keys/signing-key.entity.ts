import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A private signing key of the provider (RS256 JWK), sealed with PASS_SECRETS_KEY. */
@Entity({ name: 'signing_keys' })
export class SigningKeyEntity {
  @PrimaryColumn({ type: 'text' })
  kid: string;

  @Column({ name: 'sealed_jwk', type: 'text' })
  sealedJwk: string;

  /** The newest active key signs; retired keys are kept for the record. */
  @Column({ type: 'text' })
  status: 'active' | 'retired';

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
