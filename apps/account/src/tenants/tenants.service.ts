import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { BUILT_IN_ROLES, FULL_ACCESS_ROLE } from '@kyc/contracts';
import { AccessStatePublisher } from '../access/access-state.publisher';
import { RoleEntity } from '../roles/role.entity';
import { UserEntity } from '../users/user.entity';
import { CreateTenantDto } from './dto/create-tenant.dto';
import { TenantEntity } from './tenant.entity';

@Injectable()
export class TenantsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessStatePublisher,
  ) {}

  /** Creates the tenant, its built-in roles and its admin (full_access); returns the existing ones when it exists. */
  async create(dto: CreateTenantDto): Promise<{ tenant: TenantEntity; admin: UserEntity; created: boolean }> {
    return this.dataSource.transaction(async (m) => {
      await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`tenant:${dto.tenant_id}`]);
      const existing = await m.findOneBy(TenantEntity, { id: dto.tenant_id });
      if (existing) {
        let admin = await m.findOneBy(UserEntity, { tenantId: existing.id, username: dto.admin_email });
        if (!admin) admin = await this.createAdmin(m, existing.id, dto.admin_email);
        await this.access.users(m, admin);
        return { tenant: existing, admin, created: false };
      }
      const now = new Date();
      const tenant = await m.save(TenantEntity, { id: dto.tenant_id, name: dto.name, billingHubs: (dto.billing_hubs ?? []).map((h) => h.toUpperCase()), createdAt: now });
      const roles = Object.entries(BUILT_IN_ROLES).map(([name, r]) =>
        m.create(RoleEntity, { tenantId: tenant.id, name, description: r.description, permissions: [...r.permissions], accessRules: [], builtIn: true, createdAt: now, updatedAt: now }),
      );
      await m.save(RoleEntity, roles);
      await this.access.roles(m, ...roles);
      const admin = await this.createAdmin(m, tenant.id, dto.admin_email);
      await this.access.users(m, admin);
      return { tenant, admin, created: true };
    });
  }

  private async createAdmin(m: EntityManager, tenantId: string, email: string): Promise<UserEntity> {
    const now = new Date();
    const admin = m.create(UserEntity, { id: randomUUID(), tenantId, username: email, role: FULL_ACCESS_ROLE, status: 'enabled', createdAt: now, updatedAt: now });
    await m.insert(UserEntity, admin);
    return admin;
  }
}
