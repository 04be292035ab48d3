import { randomUUID } from 'node:crypto';

import { Caller, currentRequestId, Page, paginate } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';

import { AuditLogEntity } from './audit-log.entity';
import { ListAuditLogQuery } from './dto/list-audit-log.query';

export interface AuditEntry {
  action: string;
  resourceType: string;
  resourceId: string;
  changes?: Record<string, unknown>;
  reason?: string | null;
}

/** Values that must never reach the audit log. */
export const REDACTED = '[secret]';

/**
 * The one way to audit: write the entry with the manager of the change's transaction, so a
 * change and its audit entry commit together. The log is append-only (no update or delete path).
 */
@Injectable()
export class AuditLogService {
  constructor(@InjectRepository(AuditLogEntity) private readonly entries: Repository<AuditLogEntity>) {}

  async record(
    manager: EntityManager,
    actor: Caller | { tenantId: string; userId: string; username?: string },
    entry: AuditEntry,
  ): Promise<void> {
    await manager.insert(AuditLogEntity, {
      id: randomUUID(),
      tenantId: actor.tenantId,
      actorId: actor.userId,
      actorUsername: actor.username ?? null,
      action: entry.action,
      resourceType: entry.resourceType,
      resourceId: entry.resourceId,
      changes: (entry.changes ?? {}) as object,
      reason: entry.reason ?? null,
      requestId: currentRequestId() ?? null,
      createdAt: new Date(),
    });
  }

  list(caller: Caller, query: ListAuditLogQuery): Promise<Page<AuditLogEntity>> {
    const qb = this.entries.createQueryBuilder('a').where('a.tenantId = :tenant', { tenant: caller.tenantId });
    if (query.resource_type) qb.andWhere('a.resourceType = :type', { type: query.resource_type });
    if (query.resource_id) qb.andWhere('a.resourceId = :rid', { rid: query.resource_id });
    if (query.action) qb.andWhere('a.action = :action', { action: query.action });
    if (query.actor) qb.andWhere('(a.actorId = :actor OR a.actorUsername = :actor)', { actor: query.actor });
    if (query.since) qb.andWhere('a.createdAt >= :since', { since: new Date(query.since) });
    if (query.until) qb.andWhere('a.createdAt < :until', { until: new Date(query.until) });
    return paginate(qb, { startKey: query.start_key, limit: query.limit ?? 50 });
  }
}

/** `{ field: { from, to } }` for the fields that differ; secret fields are shown as changed, never their values. */
export function diff(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  secretFields: string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    const from = before?.[key];
    const to = after?.[key];
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    out[key] = secretFields.includes(key)
      ? { from: from === undefined ? undefined : REDACTED, to: to === undefined ? undefined : REDACTED }
      : { from, to };
  }
  return out;
}
