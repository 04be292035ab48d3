import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { CheckCountry, CheckStatus } from '@kyc/contracts';

@Entity({ name: 'checks' })
@Index('checks_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
@Index('checks_dedup_idx', ['tenantId', 'inputHash', 'createdAt'])
export class CheckEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId: string;

  @Column({ type: 'text' })
  country: CheckCountry;

  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'text' })
  status: CheckStatus;

  /** Wire-named inputs as received (after validation). */
  @Column({ type: 'jsonb' })
  inputs: Record<string, string>;

  @Column({ name: 'input_hash', type: 'text' })
  inputHash: string;

  @Column({ name: 'custom_input', type: 'text', nullable: true })
  customInput: string | null;

  @Column({ name: 'report_id', type: 'text', nullable: true })
  reportId: string | null;

  @Column({ name: 'user_authorized', type: 'boolean' })
  userAuthorized: boolean;

  @Column({ type: 'double precision', default: -1 })
  score: number;

  @Column({ name: 'id_score', type: 'double precision', default: -1 })
  idScore: number;

  @Column({ name: 'homonym_score', type: 'double precision', default: -1 })
  homonymScore: number;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
