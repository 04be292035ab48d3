import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One change to users, roles, rules, actions or environment variables. Append-only. */
@Entity({ name: 'audit_log' })
@Index('audit_log_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
export class AuditLogEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  /** Who: the user id of the caller (or "platform" for operator actions). */
  @Column({ name: 'actor_id', type: 'text' })
  actorId!: string;

  @Column({ name: 'actor_username', type: 'text', nullable: true })
  actorUsername!: string | null;

  /** What was done, `<resource>.<verb>` (user.created, user.status_changed, role.updated, rule.deleted, …). */
  @Column({ type: 'text' })
  action!: string;

  @Column({ name: 'resource_type', type: 'text' })
  resourceType!: string;

  @Column({ name: 'resource_id', type: 'text' })
  resourceId!: string;

  /** What changed: `{ field: { from, to } }`; secret values are never included. */
  @Column({ type: 'jsonb', default: () => `'{}'` })
  changes!: object;

  /** Free text the caller gave (e.g. the reason of a status change). */
  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ name: 'request_id', type: 'text', nullable: true })
  requestId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
