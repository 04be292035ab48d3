import type { ProcessProof } from '@kyc/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

import type { ClaimProvenance } from '../users/claim-provenance';

/**
 * A tenant's successful identity process bound to a person of pass, through the identifier the process itself
 * proved (the address its e-mail step's one-time code went to).
 */
@Entity({ name: 'identity_processes' })
export class IdentityProcessEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @PrimaryColumn({ name: 'process_id', type: 'text' })
  processId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  /** The proof that bound the process to the person (method email_otp, its validation). */
  @Column({ name: 'bound_by', type: 'jsonb' })
  boundBy!: ClaimProvenance;

  @Column({ type: 'jsonb' })
  proofs!: ProcessProof[];

  /** What the process's steps collected (typed in; used only as the data of a proven identity). */
  @Column({ type: 'jsonb' })
  variables!: Record<string, string>;

  @Column({ name: 'finished_at', type: 'timestamptz' })
  finishedAt!: Date;

  @Column({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt!: Date;
}
