import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A customer profile: the person the events of every service concern, found by document number
 * (with country and type), phone or e-mail. Basic info comes from the events; the counters and
 * latest results are recomputed from the profile's transactions after each event (segments read them).
 */
@Entity({ name: 'profiles' })
export class ProfileEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ name: 'first_name', type: 'text', nullable: true })
  firstName!: string | null;

  @Column({ name: 'last_name', type: 'text', nullable: true })
  lastName!: string | null;

  @Column({ type: 'text', nullable: true })
  country!: string | null;

  @Column({ name: 'phone_number', type: 'text', nullable: true })
  phoneNumber!: string | null;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ name: 'document_number', type: 'text', nullable: true })
  documentNumber!: string | null;

  @Column({ name: 'document_type', type: 'text', nullable: true })
  documentType!: string | null;

  @Column({ type: 'text', nullable: true })
  birthday!: string | null;

  @Column({ name: 'document_issue_date', type: 'text', nullable: true })
  documentIssueDate!: string | null;

  @Column({ type: 'text', nullable: true })
  gender!: string | null;

  @Column({ type: 'text', array: true })
  tags!: string[];

  /** occurred_at of the event whose basic info was last applied (older events only fill gaps). */
  @Column({ name: 'info_updated_at', type: 'timestamptz', nullable: true })
  infoUpdatedAt!: Date | null;

  /** Set when identity resolution merged this profile into another. */
  @Column({ name: 'merged_into', type: 'text', nullable: true })
  mergedInto!: string | null;

  @Column({ name: 'transactions_count', type: 'integer' })
  transactionsCount!: number;

  @Column({ name: 'checks_count', type: 'integer' })
  checksCount!: number;

  @Column({ name: 'latest_check_score', type: 'double precision', nullable: true })
  latestCheckScore!: number | null;

  @Column({ name: 'latest_check_status', type: 'text', nullable: true })
  latestCheckStatus!: string | null;

  @Column({ name: 'validations_count', type: 'integer' })
  validationsCount!: number;

  @Column({ name: 'failed_validations_count', type: 'integer' })
  failedValidationsCount!: number;

  @Column({ name: 'latest_validation_status', type: 'text', nullable: true })
  latestValidationStatus!: string | null;

  @Column({ name: 'processes_count', type: 'integer' })
  processesCount!: number;

  @Column({ name: 'latest_process_status', type: 'text', nullable: true })
  latestProcessStatus!: string | null;

  @Column({ name: 'chats_count', type: 'integer' })
  chatsCount!: number;

  @Column({ name: 'first_transaction_at', type: 'timestamptz', nullable: true })
  firstTransactionAt!: Date | null;

  @Column({ name: 'last_transaction_at', type: 'timestamptz', nullable: true })
  lastTransactionAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
