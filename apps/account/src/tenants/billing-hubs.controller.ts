import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller, RequirePermissions } from '@kyc/platform';
import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { BillingHubsResponse } from './dto/tenant.response';
import { UpdateBillingHubsDto } from './dto/update-billing-hubs.dto';
import { TenantsService } from './tenants.service';

/** The account's billing hubs, managed by its administrators (svc.users). */
@ApiTags('settings')
@RequirePermissions('svc.users')
@BackendKeys()
@Controller('v1/account/settings/billing-hubs')
export class BillingHubsController {
  constructor(private readonly tenants: TenantsService) {}

  @Get()
  @ApiSuccess({ type: BillingHubsResponse, example: { billing_hubs: ['HUB-DEMO'] } })
  @ApiEnvelopeErrors(403)
  async get(@CurrentCaller() caller: Caller) {
    return { billing_hubs: (await this.tenants.get(caller.tenantId)).billingHubs };
  }

  @Put()
  @ApiSuccess({ type: BillingHubsResponse, example: { billing_hubs: ['HUB-A', 'HUB-B'] } })
  @ApiEnvelopeErrors(400, 403, 413)
  async update(@CurrentCaller() caller: Caller, @Body() dto: UpdateBillingHubsDto) {
    return { billing_hubs: (await this.tenants.setBillingHubs(caller, dto.billing_hubs)).billingHubs };
  }
}
