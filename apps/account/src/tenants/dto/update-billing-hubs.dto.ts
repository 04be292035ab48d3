import { ApiProperty } from '@nestjs/swagger';

import { BillingHubList } from '../billing-hubs';

/** PUT /v1/account/settings/billing-hubs: the account's whole list (uppercased; [] or a single empty value removes all). */
export class UpdateBillingHubsDto {
  @ApiProperty({ type: [String], example: ['HUB-BOGOTA', 'HUB-CDMX'] })
  @BillingHubList()
  billing_hubs!: string[];
}
