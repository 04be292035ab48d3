import type {
  DeclinedReason,
  ExpiredReason,
  FailureReason,
  FailureStatus,
  ManualReviewStatus,
  ValidationStatus,
  ValidationType,
} from '@kyc/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

import type { EffectiveSettings } from '../validator-config/validator-settings';

/** A JSON object column (jsonb): `any` values so TypeORM's deep-partial update types accept it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonObject = Record<string, any>;

/** What the engines found (kept for show_details, the review queue and the finished event). */
export interface ValidationOutcome {
  status: 'success' | 'failure';
  declinedReason?: DeclinedReason;
  subvalidations: { name: string; status: 'success' | 'failure' | 'skipped'; reason?: string; details?: JsonObject }[];
  /** Wire-named details (document_details, face_recognition_validations, ...). */
  details: JsonObject;
}

@Entity({ name: 'validations' })
export class ValidationEntity {
  @PrimaryColumn({ type: 'text' }) id!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ name: 'account_id', type: 'text' }) accountId!: string;
  @Column({ type: 'text' }) type!: ValidationType;
  @Column({ type: 'text' }) status!: ValidationStatus;
  @Column({ name: 'failure_status', type: 'text', nullable: true }) failureStatus!: FailureStatus | null;
  @Column({ name: 'declined_reason', type: 'text', nullable: true }) declinedReason!: DeclinedReason | null;
  @Column({ name: 'expired_reason', type: 'text', nullable: true }) expiredReason!: ExpiredReason | null;
  @Column({ name: 'failure_reason', type: 'text', nullable: true }) failureReason!: FailureReason | null;
  @Column({ name: 'manual_review_status', type: 'text' }) manualReviewStatus!: ManualReviewStatus;
  /** The wire inputs of the create request (show_details). */
  @Column({ type: 'jsonb' }) inputs!: JsonObject;
  /** The validator settings in force (tenant config, overridden by the flow's). */
  @Column({ type: 'jsonb' }) settings!: EffectiveSettings;
  @Column({ type: 'jsonb', nullable: true }) outcome!: ValidationOutcome | null;
  @Column({ name: 'custom_input', type: 'text', nullable: true }) customInput!: string | null;
  @Column({ type: 'text', nullable: true }) country!: string | null;
  @Column({ name: 'document_type', type: 'text', nullable: true }) documentType!: string | null;
  @Column({ name: 'enrollment_id', type: 'text', nullable: true }) enrollmentId!: string | null;
  @Column({ name: 'retry_of_id', type: 'text', nullable: true }) retryOfId!: string | null;
  /** Retries made before this one in its chain (0 for a first attempt). */
  @Column({ name: 'retry_number', type: 'int' }) retryNumber!: number;
  /** OTP types: wrong codes still allowed. */
  @Column({ name: 'attempts_left', type: 'int', nullable: true }) attemptsLeft!: number | null;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt!: Date;
  @Column({ name: 'process_id', type: 'text', nullable: true }) processId!: string | null;
  @Column({ name: 'flow_id', type: 'text', nullable: true }) flowId!: string | null;
  @Column({ name: 'ip_address', type: 'text', nullable: true }) ipAddress!: string | null;
  @Column({ name: 'created_by', type: 'text' }) createdBy!: string;
  @Column({ name: 'media_complete_at', type: 'timestamptz', nullable: true }) mediaCompleteAt!: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true }) finishedAt!: Date | null;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt!: Date | null;
}
