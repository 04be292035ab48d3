import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { ActionConfig, ActionStatus, ActionType } from './action-config';

/** What a rule does when it matches: an HTTP request, an e-mail or a new check. */
@Entity({ name: 'bre_actions' })
@Index('bre_actions_rule_idx', ['tenantId', 'ruleId', 'createdAt', 'id'])
export class ActionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'rule_id', type: 'text' })
  ruleId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  type!: ActionType;

  @Column({ type: 'text' })
  status!: ActionStatus;

  /** The type's own configuration (validated on save; see action-config.ts). */
  @Column({ type: 'jsonb' })
  config!: ActionConfig;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
