import { PERMISSIONS } from '@kyc/contracts';
import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller } from '@kyc/platform';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { ListPermissionsQuery } from './dto/list-permissions.query';
import { PermissionsResponse } from './dto/permissions.response';

/**
 * GET /v1/permissions: the account's master permission set, or with `list=user` the permissions
 * of the calling user's role (as every service sees them, from the access cache). Any API key of
 * the account may ask.
 */
@ApiTags('permissions')
@BackendKeys()
@Controller('v1/permissions')
export class PermissionsController {
  @Get()
  @ApiSuccess({
    type: PermissionsResponse,
    example: { list: 'user', role: 'default_access', permissions: ['checks.country_all', 'checks.country_co'] },
  })
  @ApiEnvelopeErrors(400)
  list(@CurrentCaller() caller: Caller, @Query() query: ListPermissionsQuery) {
    if (query.list === 'user') return { list: 'user', role: caller.role, permissions: [...caller.permissions].sort() };
    return { list: 'account', permissions: [...PERMISSIONS] };
  }
}
