import { ApiEnvelopeErrors, ApiPublic, ApiSuccess, EnvelopeErrorStatus, NoRateLimit, Public } from '@kyc/platform';
import { Body, Controller, Get, Headers, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';

import { USERINFO_EXAMPLE, USERINFO_SCHEMA } from '../openapi/pass-schemas';
import { BearerChallengeInterceptor } from './bearer-challenge.interceptor';
import { UserinfoFormDto } from './dto/userinfo-form.dto';
import { UserinfoService } from './userinfo.service';

const ERRORS: Partial<Record<EnvelopeErrorStatus, [string, string]>>[] = [
  {
    400: ['the access token was sent both in the header and in the body', 'invalid_request'],
    401: ['the token carries no usable scopes', 'insufficient_scope'],
  },
  { 404: ['the user behind the token no longer exists', 'user_not_found'] },
];

/**
 * /v1/oauth2/userinfo: claims per granted scope. `Authorization: Bearer <access token>` (the scheme in any
 * case), or on POST the form parameter access_token; refusals carry `WWW-Authenticate: Bearer`.
 */
@ApiTags('oauth2')
@Public()
@UseInterceptors(BearerChallengeInterceptor)
@NoRateLimit()
@Controller('v1/oauth2/userinfo')
export class UserinfoController {
  constructor(private readonly userinfo: UserinfoService) {}

  @Get()
  @ApiPublic()
  @ApiBearerAuth()
  @ApiSuccess({ schema: USERINFO_SCHEMA, example: USERINFO_EXAMPLE })
  @ApiEnvelopeErrors(...ERRORS)
  async get(@Headers('authorization') authorization?: string) {
    return this.userinfo.claims(authorization);
  }

  @Post()
  @HttpCode(200)
  @ApiPublic()
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Userinfo by POST (OpenID Connect Core 5.3.1)',
    description: 'As GET; the access token in the Authorization header or as the form parameter access_token.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiSuccess({ schema: USERINFO_SCHEMA, example: USERINFO_EXAMPLE })
  @ApiEnvelopeErrors(...ERRORS)
  async post(@Headers('authorization') authorization: string | undefined, @Body() form: UserinfoFormDto) {
    return this.userinfo.claims(authorization, form?.access_token);
  }
}
