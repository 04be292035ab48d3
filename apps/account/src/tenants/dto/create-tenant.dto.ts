import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { BillingHubList } from '../billing-hubs';

/** Platform administration: a new tenant with its built-in roles and a full_access admin user. */
export class CreateTenantDto {
  @ApiProperty({ example: 'acme' })
  @Matches(/^[a-z0-9][a-z0-9_-]{1,62}$/, { message: 'tenant_id must be 2 to 63 lowercase letters, digits, _ or -' })
  tenant_id!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(200)
  name!: string;

  @ApiProperty()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsEmail({}, { message: 'admin_email must be an e-mail address' })
  admin_email!: string;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @BillingHubList()
  billing_hubs?: string[];
}
