import type { ConfigurableValidator } from '@kyc/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tenant's overrides of one validator's defaults (only the fields it set). */
@Entity({ name: 'validator_configs' })
export class ValidatorConfigEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @PrimaryColumn({ type: 'text' }) validator!: ConfigurableValidator;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  @Column({ type: 'jsonb' }) settings!: Record<string, any>;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
