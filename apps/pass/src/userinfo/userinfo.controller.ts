import { Public } from '@kyc/platform';
import { Controller, Get, Headers } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { UserinfoService } from './userinfo.service';

/** GET /v1/oauth2/userinfo: claims per granted scope (Authorization: Bearer <access token>). */
@ApiTags('oauth2')
@Public()
@Controller('v1/oauth2/userinfo')
export class UserinfoController {
  constructor(private readonly userinfo: UserinfoService) {}

  @Get()
  async get(@Headers('authorization') authorization?: string) {
    return this.userinfo.claims(authorization);
  }
}
