import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';

import { RoleAccessRules, RoleDescription, RoleName, RolePermissions } from './role-fields';

/**
 * PUT /v1/roles/{role_name}: the create fields; those given replace the stored ones, those left
 * out are kept. `name`, if given, must be the role's name (roles are not renamed).
 */
export class UpdateRoleDto {
  @ApiPropertyOptional()
  @IsOptional()
  @RoleName()
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @RoleDescription()
  description?: string;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @RolePermissions()
  permissions?: string[];

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @RoleAccessRules()
  access_rules?: unknown[];
}
