import { Public } from '@kyc/platform';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

import { PassConfig } from '../config/pass.config';
import { passScript } from './pass-script';

/** GET /pass.js: the embedded client script (TruoraPass.init, TruoraPass.authorize). */
@ApiExcludeController()
@Public()
@Controller('pass.js')
export class EmbedController {
  private readonly script: string;

  constructor(config: PassConfig) {
    this.script = passScript(config.issuer);
  }

  @Get()
  @Header('content-type', 'application/javascript; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  get(): string {
    return this.script;
  }
}
