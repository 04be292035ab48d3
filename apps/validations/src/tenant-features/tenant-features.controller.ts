import { ApiEnvelopeErrors, ApiSuccess, PlatformAdmin } from '@kyc/platform';
import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { FEATURES_EXAMPLE, FeaturesResponse } from './dto/features.response';
import { UpdateFeaturesDto } from './dto/update-features.dto';
import { presentFeatures, TenantFeaturesService } from './tenant-features.service';

/** Platform operators: what a tenant is authorized for in the validators suite. */
@ApiTags('admin')
@PlatformAdmin()
@Controller('v1/admin/tenants/:tenant_id/validation-features')
export class TenantFeaturesController {
  constructor(private readonly features: TenantFeaturesService) {}

  @Get()
  @ApiSuccess({ type: FeaturesResponse, example: FEATURES_EXAMPLE })
  @ApiEnvelopeErrors(403)
  async get(@Param('tenant_id') tenantId: string) {
    return presentFeatures(await this.features.get(tenantId));
  }

  @Put()
  @ApiSuccess({ type: FeaturesResponse, example: FEATURES_EXAMPLE })
  @ApiEnvelopeErrors(400, 403, 413)
  async update(@Param('tenant_id') tenantId: string, @Body() dto: UpdateFeaturesDto) {
    return presentFeatures(await this.features.update(tenantId, dto));
  }
}
