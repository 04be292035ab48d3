import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A finished validation of the validators suite (validations.validation.finished), kept by id with its process. */
@Entity({ name: 'account_validations' })
export class AccountValidationEntity {
  @PrimaryColumn({ name: 'validation_id', type: 'text' })
  validationId!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'account_id', type: 'text' })
  accountId!: string;

  /** The identity process the validation belongs to (validations created by a flow's step). */
  @Column({ name: 'process_id', type: 'text', nullable: true })
  processId!: string | null;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'text', nullable: true })
  country!: string | null;

  @Column({ name: 'document_type', type: 'text', nullable: true })
  documentType!: string | null;

  @Column({ name: 'manual_review_status', type: 'text', nullable: true })
  manualReviewStatus!: string | null;

  @Column({ type: 'jsonb' })
  subvalidations!: { name: string; status: string; reason?: string }[];

  @Column({ name: 'finished_at', type: 'timestamptz' })
  finishedAt!: Date;
}
