import type { NamesMatchingType } from '@kyc/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Check settings of a tenant (client level, all check types). */
@Entity({ name: 'check_settings' })
export class CheckSettingsEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  /** As given (`90m`, `48h`); null: the defaults per country. */
  @Column({ name: 'max_duration', type: 'text', nullable: true })
  maxDuration!: string | null;

  @Column({ name: 'max_duration_minutes', type: 'int', nullable: true })
  maxDurationMinutes!: number | null;

  @Column({ name: 'names_matching_type', type: 'text' })
  namesMatchingType!: NamesMatchingType;

  @Column({ type: 'boolean' })
  retries!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
