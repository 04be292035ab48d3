import { Column, Entity, PrimaryColumn } from 'typeorm';

import type { ProvenanceMap } from './claim-provenance';

/** Verified identity data of a person, as reported by the identity, validations and checks services. */
export interface IdentityClaims {
  verified?: boolean;
  verification_level?: string;
  verification_date?: string;
  verification_methods?: string[];
  first_name?: string;
  last_name?: string;
  gender?: string;
  birthdate?: string;
  nationality?: string;
  document_number?: string;
  document_type?: string;
  issuing_authority?: string;
  expiration_date?: string;
  is_risky?: boolean;
  was_manually_reviewed?: boolean;
}

export interface DocumentClaim {
  country: string;
  document_type: string;
  document_number: string;
  expiration_date?: string;
  verified?: boolean;
}

export interface BackgroundClaims {
  check_id?: string;
  status?: string;
  score?: number;
  updated_at?: string;
}

export interface BiometricClaims {
  face_enrolled?: boolean;
  last_face_verification_date?: string;
  liveness_check_passed?: boolean;
  face_match_confidence?: number;
}

export interface AddressClaim {
  street_address?: string;
  locality?: string;
  region?: string;
  postal_code?: string;
  country?: string;
}

/** A person who signs in with pass; the claim store of userinfo and the id_token. */
@Entity({ name: 'users' })
export class PassUserEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** Lowercased. */
  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'phone_number', type: 'text', nullable: true })
  phoneNumber!: string | null;

  @Column({ name: 'phone_verified', type: 'boolean' })
  phoneVerified!: boolean;

  @Column({ type: 'jsonb' })
  identity!: IdentityClaims;

  @Column({ type: 'jsonb' })
  documents!: DocumentClaim[];

  @Column({ type: 'jsonb' })
  background!: BackgroundClaims;

  @Column({ type: 'jsonb' })
  biometric!: BiometricClaims;

  @Column({ type: 'jsonb', nullable: true })
  address!: AddressClaim | null;

  /** Who proved each claim, with what and when (never served to applications). */
  @Column({ type: 'jsonb' })
  provenance!: ProvenanceMap;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
