import { Public } from '@kyc/platform';
import { All, Controller, Req, Res } from '@nestjs/common';
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

  @All(['authorize', 'authorize/:uid', 'v1/oauth2/token', 'v1/oauth2/bc-authorize'])
  async mount(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.provider.handle(req, reply);
  }
}
