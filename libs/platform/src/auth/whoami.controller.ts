import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { Caller, CurrentCaller } from './caller';

/** Every service answers who the API key belongs to, as that service sees it (its access cache). */
@ApiTags('authentication')
@Controller('v1/auth/whoami')
export class WhoAmIController {
  @Get()
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
