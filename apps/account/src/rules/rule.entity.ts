import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A business rule: when an event of `eventType` satisfies `condition` (JSON-Logic), its enabled actions run. */
@Entity({ name: 'bre_rules' })
@Index('bre_rules_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
export class RuleEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'event_type', type: 'text' })
  eventType!: string;

  /** Validated JSON-Logic (compiled when the rule is loaded for evaluation). */
  @Column({ type: 'jsonb' })
  condition: unknown;

  /** 1 on creation, +1 on every change; every version stays readable in bre_rule_versions. */
  @Column({ type: 'int' })
  version!: number;

  @Column({ name: 'created_by', type: 'text' })
  createdBy!: string;

  /** The user who made the current version (the rule owner create_check actions run for). */
  @Column({ name: 'updated_by', type: 'text' })
  updatedBy!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
