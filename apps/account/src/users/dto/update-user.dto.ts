import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, ValidateIf } from 'class-validator';

import { UserBillingHub, UserDisplayName, UserPhoneNumber, UserRole } from './user-fields';

/** PUT /v1/account/users/{username}: only the fields given change; an empty display_name or phone_number clears it. */
export class UpdateUserDto {
  @ApiPropertyOptional()
  @IsOptional()
  @UserRole()
  role?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @UserBillingHub()
  billing_hub?: string;

  @ApiPropertyOptional({ description: 'Empty clears it' })
  @IsOptional()
  @UserDisplayName()
  display_name?: string;

  @ApiPropertyOptional({ description: 'E.164; empty clears it' })
  @IsOptional()
  @ValidateIf((_, value) => value !== '')
  @UserPhoneNumber()
  phone_number?: string;
}
