import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A validation account (of the validators suite) used by a person's identity process. */
@Entity({ name: 'user_accounts' })
export class UserAccountEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId: string;

  @PrimaryColumn({ name: 'account_id', type: 'text' })
  accountId: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ name: 'linked_at', type: 'timestamptz' })
  linkedAt: Date;
}
