import { Public } from '@kyc/platform';
import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { ProviderService } from './provider.service';

/**
 * The paths oidc-provider serves, mounted on its Koa callback. Only these are forwarded: the provider's
 * discovery, key set, revocation and introspection stay unpublished (spec 3).
 */
@ApiExcludeController()
@Public()
@Controller()
export class ProviderController {
  constructor(private readonly provider: ProviderService) {}

  // One decorator per HTTP method, not @All: Nest registers @All routes without their route config, so the
  // platform would not see @Public() and would ask for an API key before reading the body.
  @Get(['authorize', 'authorize/:uid'])
  async read(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.provider.handle(req, reply);
  }

  @Post(['authorize', 'v1/oauth2/token', 'v1/oauth2/bc-authorize'])
  async write(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.provider.handle(req, reply);
  }
}
