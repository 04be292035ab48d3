import { BUILT_IN_ROLES } from '@kyc/contracts';
import { Clock } from '@kyc/platform';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { AccessStatePublisher } from '../access/access-state.publisher';
import { RoleEntity } from './role.entity';

interface RoleRow {
  tenant_id: string;
  name: string;
  permissions: string[];
  access_rules: object[];
}

/**
 * Built-in roles follow the permission set of the release: a tenant's `full_access` and
 * `default_access` are written when the tenant is created, so when a release adds permissions
 * (e.g. the agent workspace's), the stored built-in roles of older tenants are brought up to the
 * current set at start, and each changed role is published to every access cache in the same
 * transaction. Idempotent: rows already equal are not touched (a second replica changes nothing).
 */
@Injectable()
export class BuiltInRolesSyncService implements OnApplicationBootstrap {
  private readonly logger = new Logger('built-in-roles');

  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessStatePublisher,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const changed = await this.sync();
    if (changed) this.logger.log({ msg: 'built-in roles brought up to the current permission set', roles: changed });
  }

  /** Rewrites the built-in roles whose permissions differ from the release's; returns how many. */
  async sync(): Promise<number> {
    return this.dataSource.transaction(async (m) => {
      let count = 0;
      for (const [name, role] of Object.entries(BUILT_IN_ROLES)) {
        const permissions = [...role.permissions];
        const result = await m
          .createQueryBuilder()
          .update(RoleEntity)
          .set({ permissions, updatedAt: this.clock.now() })
          .where('built_in AND name = :name AND permissions IS DISTINCT FROM CAST(:permissions AS text[])', {
            name,
            permissions,
          })
          .returning('tenant_id, name, permissions, access_rules')
          .execute();
        const rows = result.raw as RoleRow[];
        const updated = rows.map((r) =>
          m.create(RoleEntity, {
            tenantId: r.tenant_id,
            name: r.name,
            permissions: r.permissions,
            accessRules: r.access_rules,
          }),
        );
        if (updated.length) await this.access.roles(m, ...updated);
        count += updated.length;
      }
      return count;
    });
  }
}
