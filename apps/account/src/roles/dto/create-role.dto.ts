import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';

import { RoleAccessRules, RoleDescription, RoleName, RolePermissions } from './role-fields';

/** POST /v1/roles. */
export class CreateRoleDto {
  @ApiProperty({ description: 'Unique in the account; not full_access or default_access', example: 'analyst_co' })
  @RoleName()
  name!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @RoleDescription()
  description?: string;

  @ApiPropertyOptional({ type: [String], description: 'Repeated once per permission (GET /v1/permissions)' })
  @IsOptional()
  @RolePermissions()
  permissions?: string[];

  @ApiPropertyOptional({
    type: [String],
    description: 'Repeated once per rule: JSON-Logic over check fields, e.g. {"==":[{"var":"country"},"CO"]}',
  })
  @IsOptional()
  @RoleAccessRules()
  access_rules?: unknown[];
}
