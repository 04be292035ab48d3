import { BUILT_IN_ROLES } from '@kyc/contracts';
import { Caller, Clock, lockForTransaction } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { AccessStatePublisher, AccessUser } from '../access/access-state.publisher';
import { AuditLogService, diff } from '../audit/audit-log.service';
import { RoleEntity } from '../roles/role.entity';
import { CreateTenantDto } from './dto/create-tenant.dto';
import { UpdateTenantDto } from './dto/update-tenant.dto';
import { TenantEntity } from './tenant.entity';
import { TenantAdmins } from './tenant-admins';
import { TenantErrorCode, TenantException } from './tenants.exception';

/** Who changed a tenant: a platform operator (operator token) or a user of the tenant. */
type TenantActor = Caller | { tenantId: string; userId: string; username?: string };
const operator = (tenantId: string): TenantActor => ({ tenantId, userId: 'platform', username: 'platform-operator' });

@Injectable()
export class TenantsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessStatePublisher,
    private readonly admins: TenantAdmins,
    private readonly audit: AuditLogService,
    private readonly clock: Clock,
  ) {}

  /** Creates the tenant, its built-in roles and its admin (full_access); returns the existing ones when it exists. */
  async create(dto: CreateTenantDto): Promise<{ tenant: TenantEntity; admin: AccessUser; created: boolean }> {
    return this.dataSource.transaction(async (m) => {
      await lockForTransaction(m, `tenant:${dto.tenant_id}`);
      const existing = await m.findOneBy(TenantEntity, { id: dto.tenant_id });
      if (existing) {
        const admin = await this.admins.admin(m, existing.id, dto.admin_email);
        await this.access.users(m, admin);
        return { tenant: existing, admin, created: false };
      }
      const now = this.clock.now();
      const tenant = await m.save(TenantEntity, {
        id: dto.tenant_id,
        name: dto.name,
        billingHubs: (dto.billing_hubs ?? []).map((h) => h.toUpperCase()),
        createdAt: now,
      });
      const roles = Object.entries(BUILT_IN_ROLES).map(([name, r]) =>
        m.create(RoleEntity, {
          tenantId: tenant.id,
          name,
          description: r.description,
          permissions: [...r.permissions],
          accessRules: [],
          builtIn: true,
          createdAt: now,
          updatedAt: now,
        }),
      );
      await m.save(RoleEntity, roles);
      await this.access.roles(m, ...roles);
      const admin = await this.admins.admin(m, tenant.id, dto.admin_email);
      await this.access.users(m, admin);
      return { tenant, admin, created: true };
    });
  }

  async get(tenantId: string): Promise<TenantEntity> {
    const tenant = await this.dataSource.manager.findOneBy(TenantEntity, { id: tenantId });
    if (!tenant) throw new TenantException(TenantErrorCode.TenantNotFound, `tenant ${tenantId} not found`);
    return tenant;
  }

  /** Platform operator: rename the tenant and/or replace its billing hubs. */
  update(tenantId: string, dto: UpdateTenantDto): Promise<TenantEntity> {
    return this.change(operator(tenantId), tenantId, { name: dto.name, billingHubs: dto.billing_hubs });
  }

  /** Tenant administrator (svc.users): replace the billing hubs users must choose from. Users keep the hub they have. */
  setBillingHubs(caller: Caller, hubs: string[]): Promise<TenantEntity> {
    return this.change(caller, caller.tenantId, { billingHubs: hubs });
  }

  private change(
    actor: TenantActor,
    tenantId: string,
    patch: { name?: string; billingHubs?: string[] },
  ): Promise<TenantEntity> {
    return this.dataSource.transaction(async (m) => {
      const tenant = await m.findOne(TenantEntity, { where: { id: tenantId }, lock: { mode: 'pessimistic_write' } });
      if (!tenant) throw new TenantException(TenantErrorCode.TenantNotFound, `tenant ${tenantId} not found`);
      const before = { name: tenant.name, billing_hubs: tenant.billingHubs };
      if (patch.name !== undefined) tenant.name = patch.name;
      if (patch.billingHubs !== undefined) tenant.billingHubs = patch.billingHubs.map((h) => h.toUpperCase());
      const changes = diff(before, { name: tenant.name, billing_hubs: tenant.billingHubs });
      if (!Object.keys(changes).length) return tenant;
      await m.update(TenantEntity, { id: tenant.id }, { name: tenant.name, billingHubs: tenant.billingHubs });
      await this.audit.record(m, actor, {
        action: 'tenant.updated',
        resourceType: 'tenant',
        resourceId: tenant.id,
        changes,
      });
      return tenant;
    });
  }
}
