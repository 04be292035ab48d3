import { randomUUID } from 'node:crypto';

import { BUILT_IN_ROLES, ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE, GRANTING_PERMISSIONS } from '@kyc/contracts';
import { closeDb, createTenant, db, startInProcess, TestTenant } from '@kyc/testing';

import { accountService } from '../../src/app.module';
import { BuiltInRolesSyncService } from '../../src/roles/built-in-roles-sync.service';

/**
 * A release that adds permissions (the agent workspace's) brings the stored built-in roles of
 * older tenants up to the current set when account starts, and publishes each changed role to the
 * access caches in the same transaction.
 */
describe('built-in roles follow the permission set of the release', () => {
  let tenant: TestTenant;
  const started: Awaited<ReturnType<typeof startInProcess>>[] = [];
  const start = async () => {
    const account = await startInProcess('account', accountService, {
      KAFKA_CONSUMER_GROUP: `account-built-in-roles-${randomUUID().slice(0, 8)}`,
    });
    started.push(account);
    return account;
  };
  const role = async (name: string) =>
    (
      await db().query(`SELECT permissions FROM account.roles WHERE tenant_id = $1 AND name = $2`, [
        tenant.tenantId,
        name,
      ])
    ).rows[0].permissions as string[];
  const published = async (name: string) =>
    (
      await db().query(
        `SELECT envelope FROM account.outbox WHERE topic = 'account.roles' AND message_key = $1 ORDER BY seq`,
        [`${tenant.tenantId}/${name}`],
      )
    ).rows.map((r) => r.envelope.payload.permissions as string[]);

  beforeAll(async () => {
    const first = await start();
    tenant = await createTenant(first.url);
    // A tenant created before the workspace's permissions existed.
    await db().query(
      `UPDATE account.roles SET permissions = array_remove(array_remove(permissions, $2), $3)
        WHERE tenant_id = $1 AND built_in`,
      [tenant.tenantId, ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE],
    );
    await first.close();
  });

  afterAll(async () => {
    for (const s of started) await s.close().catch(() => undefined);
    await closeDb();
  });

  it('a start rewrites the stale built-in roles and publishes them; a second pass changes nothing', async () => {
    expect(await role('full_access')).not.toContain(ENGAGEMENT_MANAGE);
    const account = await start();
    expect(await role('full_access')).toEqual([...GRANTING_PERMISSIONS]);
    expect(await role('default_access')).toEqual([...BUILT_IN_ROLES.default_access.permissions]);
    const events = await published('full_access');
    expect(events).toHaveLength(2); // the tenant's creation, then the release's set
    expect(events[1]).toEqual([...GRANTING_PERMISSIONS]);
    expect(await account.app.get(BuiltInRolesSyncService).sync()).toBe(0);
    expect(await published('full_access')).toHaveLength(2);
  });
});
