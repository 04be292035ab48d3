import { PlatformAdmin } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { CreateTenantDto } from './dto/create-tenant.dto';
import { UpdateTenantDto } from './dto/update-tenant.dto';
import { presentTenant } from './tenant.presenter';
import { TenantsService } from './tenants.service';

@ApiTags('platform administration')
@PlatformAdmin()
@Controller('v1/admin/tenants')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post()
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
  async get(@Param('tenant_id') tenantId: string) {
    return { tenant: presentTenant(await this.tenants.get(tenantId)) };
  }

  @Put(':tenant_id')
  async update(@Param('tenant_id') tenantId: string, @Body() dto: UpdateTenantDto) {
    return { tenant: presentTenant(await this.tenants.update(tenantId, dto)) };
  }
}
