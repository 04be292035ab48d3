import { Column, Entity, PrimaryColumn } from 'typeorm';

export const AGENT_STATUSES = ['online', 'offline'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** An agent of the workspace: a user of the account service, known by its e-mail (username). */
@Entity({ name: 'agents' })
export class AgentEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @PrimaryColumn({ type: 'text' })
  email!: string;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ type: 'text' })
  status!: AgentStatus;

  /** Its own capacity; null: the tenant's default. */
  @Column({ type: 'integer', nullable: true })
  capacity!: number | null;

  /** Queues (line phones or group names) it serves; empty: every queue. */
  @Column({ type: 'text', array: true })
  groups!: string[];

  @Column({ name: 'active_chats', type: 'integer' })
  activeChats!: number;

  @Column({ name: 'last_assigned_at', type: 'timestamptz', nullable: true })
  lastAssignedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

export const RULESET_STRATEGIES = ['round_robin', 'least_busy'] as const;
export type RulesetStrategy = (typeof RULESET_STRATEGIES)[number];

/** A tenant's workspace settings: default capacity, whether capacities are enforced, its assignment ruleset. */
@Entity({ name: 'agent_settings' })
export class AgentSettingsEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'default_capacity', type: 'integer' })
  defaultCapacity!: number;

  @Column({ name: 'capacity_enabled', type: 'boolean' })
  capacityEnabled!: boolean;

  @Column({ name: 'ruleset_strategy', type: 'text' })
  rulesetStrategy!: RulesetStrategy;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
