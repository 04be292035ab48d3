import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { ActionType } from '../actions/action-config';

export const EXECUTION_OUTCOMES = ['pending', 'running', 'retrying', 'succeeded', 'failed', 'skipped'] as const;
export type ExecutionOutcome = (typeof EXECUTION_OUTCOMES)[number];

/** One action run for one event (unique per event and action, so a redelivered event never runs it twice). */
@Entity({ name: 'bre_executions' })
@Index('bre_executions_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
export class ExecutionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'rule_id', type: 'text' })
  ruleId!: string;

  /** The rule version whose condition matched. */
  @Column({ name: 'rule_version', type: 'int' })
  ruleVersion!: number;

  @Column({ name: 'action_id', type: 'text' })
  actionId!: string;

  @Column({ name: 'action_type', type: 'text' })
  actionType!: ActionType;

  /** The id of the event that fired the rule. */
  @Column({ name: 'event_id', type: 'text' })
  eventId!: string;

  @Column({ name: 'check_id', type: 'text', nullable: true })
  checkId!: string | null;

  /** rule_depth of the check that fired the rule. */
  @Column({ type: 'int', default: 0 })
  depth!: number;

  @Column({ type: 'text' })
  outcome!: ExecutionOutcome;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  /** HTTP status (http_request) or SMTP reply code (email) of the last attempt. */
  @Column({ name: 'response_status', type: 'int', nullable: true })
  responseStatus!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  /** The check a create_check action led to (from its checks.check.created event). */
  @Column({ name: 'created_check_id', type: 'text', nullable: true })
  createdCheckId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
