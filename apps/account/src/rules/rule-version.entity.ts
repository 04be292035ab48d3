import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One version of a rule, as it was saved (append-only). */
@Entity({ name: 'bre_rule_versions' })
@Index('bre_rule_versions_rule_idx', ['tenantId', 'ruleId', 'createdAt', 'id'])
export class RuleVersionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'rule_id', type: 'text' })
  ruleId!: string;

  @Column({ type: 'int' })
  version!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'event_type', type: 'text' })
  eventType!: string;

  @Column({ type: 'jsonb' })
  condition: unknown;

  @Column({ name: 'created_by', type: 'text' })
  createdBy!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
