import type { BlockReason, EnrollmentType, PhoneType, ValidationStatus } from '@kyc/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What a validation compares with: an enrolled face (face-recognition), e-mail or phone (their
 * OTP validations confirm them) or a blocked face (face-search, the tenant's blocklist).
 */
@Entity({ name: 'enrollments' })
export class EnrollmentEntity {
  @PrimaryColumn({ type: 'text' }) id!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ name: 'account_id', type: 'text' }) accountId!: string;
  @Column({ type: 'text' }) type!: EnrollmentType;
  @Column({ type: 'text' }) status!: ValidationStatus;
  @Column({ type: 'text', nullable: true }) reason!: string | null;
  @Column({ type: 'text', nullable: true }) country!: string | null;
  @Column({ name: 'phone_number', type: 'text', nullable: true }) phoneNumber!: string | null;
  @Column({ name: 'phone_type', type: 'text', nullable: true }) phoneType!: PhoneType | null;
  @Column({ type: 'text', nullable: true }) email!: string | null;
  @Column({ type: 'text', nullable: true }) confirmation!: string | null;
  @Column({ name: 'fraud_reason', type: 'text', nullable: true }) fraudReason!: BlockReason | null;
  /** 128-d descriptor of the enrolled face, once its photo was read. */
  @Column({ name: 'face_descriptor', type: 'jsonb', nullable: true }) faceDescriptor!: number[] | null;
  /** The validation that confirmed it. */
  @Column({ name: 'validation_id', type: 'text', nullable: true }) validationId!: string | null;
  /** The face photo upload link is valid until then (face types). */
  @Column({ name: 'upload_expires_at', type: 'timestamptz', nullable: true }) uploadExpiresAt!: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true }) finishedAt!: Date | null;
}
