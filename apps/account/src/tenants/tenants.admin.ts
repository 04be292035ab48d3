import { AdminCommand } from '@kyc/platform';

import { CreateTenantDto } from './dto/create-tenant.dto';
import { TenantsService } from './tenants.service';

/**
 * `node dist/apps/account/src/main.js admin create-tenant --tenant-id acme --name "Acme S.A.S."
 * --admin-email admin@acme.co [--billing-hub HUB-A …]`: what POST /v1/admin/tenants does (the same
 * DTO and TenantsService.create): the tenant, its built-in roles and its full_access administrator,
 * published to the other services through the outbox. Idempotent: an existing tenant is kept.
 */
export const createTenantCommand: AdminCommand<CreateTenantDto> = {
  usage: '--tenant-id <id> --name <name> --admin-email <e-mail> [--billing-hub <hub> ...]',
  dto: CreateTenantDto,
  aliases: { tenant: 'tenant_id', 'billing-hub': 'billing_hubs' },
  arrays: ['billing_hubs'],
  async run(app, dto) {
    const { tenant, admin, created } = await app.get(TenantsService).create(dto);
    return {
      tenant_id: tenant.id,
      name: tenant.name,
      billing_hubs: tenant.billingHubs,
      created,
      admin_user: { user_id: admin.id, username: admin.username, role: admin.role, status: admin.status },
    };
  },
};
