/**
 * Where a claim of a person comes from (issue 30 §2, docs/security.md "Pass claims and their provenance").
 * - `pass`: the person answered a one-time code in pass itself (the sign-in e-mail code);
 * - `operator`: seeded by the platform operator (PUT /v1/admin/users);
 * - `identity`: a tenant's successful identity process, bound to the person through what it proved;
 * - `checks`: a tenant's background check matched by the document number of the person's proven identity;
 * - `legacy`: stored before provenance was recorded (any proven claim replaces it).
 */
export interface ClaimProvenance {
  source: 'pass' | 'operator' | 'identity' | 'checks' | 'legacy';
  /** The tenant whose process, validation or check proved it (identity and checks). */
  tenant_id?: string;
  process_id?: string;
  validation_ids?: string[];
  check_id?: string;
  /** email_otp, document+face, face, background_check, operator_seed, legacy. */
  method: string;
  verified_at: string;
}

/** The claim groups of a person and the provenance of each (documents by `<country>:<document_type>`). */
export interface ProvenanceMap {
  email?: ClaimProvenance;
  phone?: ClaimProvenance;
  identity?: ClaimProvenance;
  biometric?: ClaimProvenance;
  background?: ClaimProvenance;
  address?: ClaimProvenance;
  documents?: Record<string, ClaimProvenance>;
}

/** A claim a tenant may set or refresh: not yet proven, legacy, or proven by that same tenant. */
export const tenantMayWrite = (current: ClaimProvenance | undefined, tenantId: string): boolean =>
  !current ||
  current.source === 'legacy' ||
  (current.source !== 'operator' && current.source !== 'pass' && current.tenant_id === tenantId);
