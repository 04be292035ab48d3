import { TenantEntity } from './tenant.entity';

export const presentTenant = (tenant: TenantEntity) => ({
  tenant_id: tenant.id,
  name: tenant.name,
  billing_hubs: tenant.billingHubs,
  creation_date: tenant.createdAt.toISOString(),
});
