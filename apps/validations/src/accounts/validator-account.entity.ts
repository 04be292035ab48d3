import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A validation account: one user of the tenant across every validator. */
@Entity({ name: 'validator_accounts' })
export class ValidatorAccountEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @PrimaryColumn({ name: 'account_id', type: 'text' }) accountId!: string;
  @Column({ type: 'text', nullable: true }) email!: string | null;
  @Column({ name: 'first_name', type: 'text', nullable: true }) firstName!: string | null;
  @Column({ name: 'last_name', type: 'text', nullable: true }) lastName!: string | null;
  @Column({ name: 'phone_number', type: 'text', nullable: true }) phoneNumber!: string | null;
  @Column({ type: 'text', nullable: true }) country!: string | null;
  @Column({ name: 'document_number', type: 'text', nullable: true }) documentNumber!: string | null;
  @Column({ name: 'document_type', type: 'text', nullable: true }) documentType!: string | null;
  @Column({ name: 'document_issue_date', type: 'text', nullable: true }) documentIssueDate!: string | null;
  @Column({ name: 'facebook_user', type: 'text', nullable: true }) facebookUser!: string | null;
  @Column({ name: 'twitter_user', type: 'text', nullable: true }) twitterUser!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
