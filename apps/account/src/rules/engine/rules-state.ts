import type { EntityManager } from 'typeorm';

/**
 * Marks a tenant's rules as changed, in the transaction of the change. Every replica compares
 * this counter with the one its compiled rules were loaded at, and reloads when it moved.
 */
export async function bumpRulesState(manager: EntityManager, tenantId: string): Promise<void> {
  await manager.query(
    `INSERT INTO bre_tenant_state (tenant_id, rules_version) VALUES ($1, 1)
     ON CONFLICT (tenant_id) DO UPDATE SET rules_version = bre_tenant_state.rules_version + 1`,
    [tenantId],
  );
}

export async function rulesStateOf(manager: EntityManager, tenantId: string): Promise<number> {
  const rows = await manager.query<{ rules_version: string | number }[]>(
    `SELECT rules_version FROM bre_tenant_state WHERE tenant_id = $1`,
    [tenantId],
  );
  return rows.length ? Number(rows[0].rules_version) : 0;
}
