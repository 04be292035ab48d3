import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

import { BillingHubList } from '../billing-hubs';

/** PUT /v1/admin/tenants/{tenant_id} (platform operator): the fields given replace the stored ones. */
export class UpdateTenantDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'name must be text' })
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(200, { message: 'name must be at most 200 characters' })
  name?: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'Replaces the list; repeated form field, or [] / a single empty value to remove all',
  })
  @IsOptional()
  @BillingHubList()
  billing_hubs?: string[];
}
