import { Controller, Get } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';

import { ApiSuccess } from '../openapi/api-docs.decorators';
import { EndUserKeys } from './auth.decorators';
import { Caller, CurrentCaller } from './caller';

export class WhoAmIResponse {
  @ApiProperty({ example: 'demo' }) tenant_id!: string;
  @ApiProperty() user_id!: string;
  @ApiProperty({ example: 'admin@demo.local' }) username!: string;
  @ApiProperty({ example: 'full_access' }) role!: string;
  @ApiProperty({ type: [String], example: ['checks.country_all', 'svc.keys', 'svc.users'] }) permissions!: string[];
  @ApiProperty() key_id!: string;
  @ApiProperty({ enum: ['backend', 'web', 'sdk'] }) key_type!: string;
  @ApiProperty({ enum: [0, 1] }) api_key_version!: number;
}

/**
 * Every service answers who the API key belongs to, as that service sees it (its access cache).
 * A temporary key may ask too: the answer describes only the key itself.
 */
@ApiTags('authentication')
@EndUserKeys()
@Controller('v1/auth/whoami')
export class WhoAmIController {
  @Get()
  @ApiSuccess({
    type: WhoAmIResponse,
    example: {
      tenant_id: 'demo',
      user_id: 'USR019ab9f2c4e0a1b2c3d4e5',
      username: 'admin@demo.local',
      role: 'full_access',
      permissions: ['checks.country_all', 'svc.keys', 'svc.users'],
      key_id: 'KEY019ab9f2c4e0a1b2c3d4e5',
      key_type: 'backend',
      api_key_version: 1,
    },
  })
  whoami(@CurrentCaller() caller: Caller) {
    return {
      tenant_id: caller.tenantId,
      user_id: caller.userId,
      username: caller.username,
      role: caller.role,
      permissions: [...caller.permissions].sort(),
      key_id: caller.keyId,
      key_type: caller.keyType,
      api_key_version: caller.keyVersion,
    };
  }
}
