import { ApiEnvelopeErrors, ApiSuccess, PlatformAdmin } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { CreateTenantDto } from './dto/create-tenant.dto';
import { TENANT_EXAMPLE, TenantCreatedResponse, TenantResponse } from './dto/tenant.response';
import { UpdateTenantDto } from './dto/update-tenant.dto';
import { presentTenant } from './tenant.presenter';
import { TenantsService } from './tenants.service';

@ApiTags('platform administration')
@PlatformAdmin()
@Controller('v1/admin/tenants')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post()
  @ApiSuccess({
    type: TenantCreatedResponse,
    description: 'The tenant and its first administrator (created: false when it existed)',
    example: {
      tenant_id: 'acme',
      name: 'Acme S.A.S.',
      billing_hubs: ['HUB-A'],
      created: true,
      admin_user: {
        user_id: 'USR019ab9f2c4e0a1b2c3d4e5',
        username: 'admin@acme.co',
        role: 'full_access',
        status: 'enabled',
      },
    },
  })
  @ApiEnvelopeErrors(400, 403, 413)
  @HttpCode(200)
  async create(@Body() dto: CreateTenantDto) {
    const { tenant, admin, created } = await this.tenants.create(dto);
    return {
      tenant_id: tenant.id,
      name: tenant.name,
      billing_hubs: tenant.billingHubs,
      created,
      admin_user: { user_id: admin.id, username: admin.username, role: admin.role, status: admin.status },
    };
  }

  @Get(':tenant_id')
  @ApiSuccess({ wrap: 'tenant', type: TenantResponse, example: { tenant: TENANT_EXAMPLE } })
  @ApiEnvelopeErrors(403, { 404: ['Tenant acme not found', 'tenant_not_found'] })
  async get(@Param('tenant_id') tenantId: string) {
    return { tenant: presentTenant(await this.tenants.get(tenantId)) };
  }

  @Put(':tenant_id')
  @ApiSuccess({ wrap: 'tenant', type: TenantResponse, example: { tenant: TENANT_EXAMPLE } })
  @ApiEnvelopeErrors(400, 403, { 404: ['Tenant acme not found', 'tenant_not_found'] }, 413)
  async update(@Param('tenant_id') tenantId: string, @Body() dto: UpdateTenantDto) {
    return { tenant: presentTenant(await this.tenants.update(tenantId, dto)) };
  }
}
