import type { ProcessStatus } from '@kyc/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { FlowStepType } from '../flows/flow.entity';

export type StepStatus = 'pending' | 'awaiting_validation' | 'success' | 'failure';

/** The progress of one flow step inside a process. */
export interface ProcessStep {
  step_id: string;
  type: FlowStepType;
  /** Verification id the client echoes when it submits the step's input. */
  verification_id: string;
  status: StepStatus;
  /** Names of the inputs the step expects (form field names; validator steps none). */
  expected_inputs: string[];
  validation_id?: string;
  /** Upload links of the step's validation (front_url, reverse_url, file_upload_link). */
  instructions?: Record<string, string>;
  /** Upload slots of the end user's page already sent to the validation (front, reverse, selfie). */
  uploaded?: string[];
  /** E-mail and phone steps: the answer of the validations service to the last code sent. */
  code_status?: 'accepted' | 'rejected';
  /** E-mail and phone steps: codes the user may still try. */
  attempts_left?: number;
  /**
   * E-mail and phone steps that succeeded: the address or number the code was sent to, as the validations
   * service reported it (the proof the process reports in identity.process.finished).
   */
  proven_value?: string;
  declined_reason?: string;
  expired_reason?: string;
  /** Appended by POST /verifications (dynamic processes). */
  dynamic?: boolean;
  /**
   * Times the step was redone, after POST /back or a retry of its failed validation (0 or absent: the first
   * attempt); part of its validation's keys.
   */
  attempt?: number;
  /**
   * Document and face steps whose validation failed with a retry allowed (the validator settings'
   * allowed_retries and retry_ttl): the failed validation the step's next one retries, why it failed (its
   * declined or failure reason, for the person to take the photo again) and the retries left after this one.
   */
  retry_of_id?: string;
  retry_reason?: string;
  retries_left?: number;
  completed_date?: string;
}

export interface OverrideChange {
  override_status: ProcessStatus;
  previous: ProcessStatus | null;
  user_id: string;
  reason?: string;
  date: string;
}

@Entity({ name: 'processes' })
@Index('processes_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
export class ProcessEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'flow_id', type: 'text' })
  flowId!: string;

  /** The temporary key that created the process (one key, one process). */
  @Column({ name: 'key_id', type: 'text' })
  keyId!: string;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ name: 'account_id', type: 'text' })
  accountId!: string;

  @Column({ type: 'text' })
  status!: ProcessStatus;

  @Column({ name: 'failure_status', type: 'text', nullable: true })
  failureStatus!: string | null;

  @Column({ name: 'declined_reason', type: 'text', nullable: true })
  declinedReason!: string | null;

  @Column({ name: 'expired_reason', type: 'text', nullable: true })
  expiredReason!: string | null;

  /** 0-based index of the step the user is on (equals steps.length when every step is done). */
  @Column({ name: 'current_step', type: 'int' })
  currentStep!: number;

  @Column({ type: 'jsonb' })
  steps!: ProcessStep[];

  @Column({ type: 'jsonb' })
  variables!: Record<string, string>;

  @Column({ name: 'phone_number', type: 'text', nullable: true })
  phoneNumber!: string | null;

  @Column({ name: 'device_info', type: 'text', nullable: true })
  deviceInfo!: string | null;

  @Column({ name: 'override_status', type: 'text', nullable: true })
  overrideStatus!: ProcessStatus | null;

  @Column({ name: 'override_status_history', type: 'jsonb' })
  overrideStatusHistory!: OverrideChange[];

  /** How many 5-minute graces the timeout has granted (at most 3). */
  @Column({ name: 'timeout_attempts', type: 'int' })
  timeoutAttempts!: number;

  @Column({ type: 'timestamptz' })
  deadline!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}

/** The key of one attempt at a step's validation: a step redone after POST /back gets a new validation. */
export const attemptKey = (p: { id: string }, step: ProcessStep) =>
  `${p.id}:${step.verification_id}${step.attempt ? `:${step.attempt}` : ''}`;
