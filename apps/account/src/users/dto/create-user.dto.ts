import { DEFAULT_ACCESS_ROLE } from '@kyc/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';

import {
  USER_LANGUAGES,
  UserBillingHub,
  UserCountry,
  UserDisplayName,
  UserEmail,
  UserLanguage,
  UserPhoneNumber,
  UserRole,
} from './user-fields';

/** POST /v1/account/users. */
export class CreateUserDto {
  @ApiProperty({ description: 'Becomes the username (stored lowercased)', example: 'ana@acme.com' })
  @UserEmail()
  email!: string;

  @ApiPropertyOptional({ description: 'ISO 3166-1 alpha-2', example: 'CO' })
  @IsOptional()
  @UserCountry()
  country?: string;

  @ApiPropertyOptional({ description: 'E.164', example: '+573001234567' })
  @IsOptional()
  @UserPhoneNumber()
  phone_number?: string;

  @ApiPropertyOptional({ enum: USER_LANGUAGES })
  @IsOptional()
  @UserLanguage()
  language?: string;

  @ApiPropertyOptional({ description: 'An existing role of the account', default: DEFAULT_ACCESS_ROLE })
  @IsOptional()
  @UserRole()
  role?: string;

  @ApiPropertyOptional({
    description:
      'Required when the account has billing hubs: one of them, exactly as listed (GET /v1/account/settings/billing-hubs)',
  })
  @IsOptional()
  @UserBillingHub()
  billing_hub?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @UserDisplayName()
  display_name?: string;
}
