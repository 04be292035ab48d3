import type { UserStatus } from '@kyc/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity({ name: 'users' })
@Index('users_tenant_username_uq', ['tenantId', 'username'], { unique: true })
export class UserEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  /** The e-mail, lowercased. */
  @Column({ type: 'text' })
  username!: string;

  @Column({ type: 'text' })
  role!: string;

  @Column({ type: 'text' })
  status!: UserStatus;

  @Column({ type: 'text', nullable: true })
  country!: string | null;

  @Column({ name: 'phone_number', type: 'text', nullable: true })
  phoneNumber!: string | null;

  @Column({ type: 'text', nullable: true })
  language!: string | null;

  @Column({ name: 'billing_hub', type: 'text', nullable: true })
  billingHub!: string | null;

  @Column({ name: 'display_name', type: 'text', nullable: true })
  displayName!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
