import { PlatformAdmin } from '@kyc/platform';
import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { UpdateFeaturesDto } from './dto/update-features.dto';
import { presentFeatures, TenantFeaturesService } from './tenant-features.service';

/** Platform operators: what a tenant is authorized for in the validators suite. */
@ApiTags('admin')
@PlatformAdmin()
@Controller('v1/admin/tenants/:tenant_id/validation-features')
export class TenantFeaturesController {
  constructor(private readonly features: TenantFeaturesService) {}

  @Get()
  async get(@Param('tenant_id') tenantId: string) {
    return presentFeatures(await this.features.get(tenantId));
  }

  @Put()
  async update(@Param('tenant_id') tenantId: string, @Body() dto: UpdateFeaturesDto) {
    return presentFeatures(await this.features.update(tenantId, dto));
  }
}
