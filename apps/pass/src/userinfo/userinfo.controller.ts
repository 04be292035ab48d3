import { ApiEnvelopeErrors, ApiPublic, ApiSuccess, NoRateLimit, Public } from '@kyc/platform';
import { Controller, Get, Headers } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { USERINFO_EXAMPLE, USERINFO_SCHEMA } from '../openapi/pass-schemas';
import { UserinfoService } from './userinfo.service';

/** GET /v1/oauth2/userinfo: claims per granted scope (Authorization: Bearer <access token>). */
@ApiTags('oauth2')
@Public()
@NoRateLimit()
@Controller('v1/oauth2/userinfo')
export class UserinfoController {
  constructor(private readonly userinfo: UserinfoService) {}

  @Get()
  @ApiPublic()
  @ApiBearerAuth()
  @ApiSuccess({ schema: USERINFO_SCHEMA, example: USERINFO_EXAMPLE })
  @ApiEnvelopeErrors(
    { 401: ['the token carries no usable scopes', 'insufficient_scope'] },
    { 404: ['the user behind the token no longer exists', 'user_not_found'] },
  )
  async get(@Headers('authorization') authorization?: string) {
    return this.userinfo.claims(authorization);
  }
}
