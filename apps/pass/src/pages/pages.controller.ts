import { NoRateLimit, PAGE_STYLE, Public } from '@kyc/platform';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

/** GET /assets/page.css: the platform's design of the pages people see (PAGE_STYLE), from pass's origin. */
@ApiExcludeController()
@Public()
@Controller('assets')
export class PagesController {
  @Get('page.css')
  @NoRateLimit()
  @Header('content-type', 'text/css; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  @Header('x-content-type-options', 'nosniff')
  style(): string {
    return PAGE_STYLE;
  }
}
