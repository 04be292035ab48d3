import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A one-time sign-in code e-mailed during an interaction (only its HMAC is stored). */
@Entity({ name: 'sign_in_codes' })
export class SignInCodeEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'interaction_uid', type: 'text' })
  interactionUid: string;

  @Column({ type: 'text' })
  email: string;

  @Column({ name: 'code_hash', type: 'text' })
  codeHash: string;

  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
