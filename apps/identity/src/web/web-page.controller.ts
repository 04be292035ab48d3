import {
  BackendKeys,
  BodyLimit,
  Caller,
  CurrentCaller,
  EndUserKeys,
  InputLimits,
  Public,
  RateLimitByClientAddress,
} from '@kyc/platform';
import { Body, Controller, Get, Headers, HttpCode, Param, Put, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';

import { presentProcess } from '../processes/process.presenter';
import { CAPTURE_SCRIPT } from './assets/capture-script';
import { PAGE_SCRIPT } from './assets/page-script';
import { PAGE_STYLE } from './assets/page-style';
import { PageQuery, UPLOAD_BODY_LIMIT_BYTES, UPLOAD_MAX_CHARS, UploadDto, UploadParams } from './dto/upload.dto';
import { pageLanguage } from './i18n/messages';
import { pageTemplate } from './templates/page.template';
import { WebPageService } from './web-page.service';
import { WebUploadService } from './web-upload.service';

/**
 * The page carries the user's temporary key in its URL: it must never leave in a Referer (the
 * redirect at the end goes to another site), be cached, or be framed; scripts and styles are ours only.
 * The camera (capture.js) is allowed to this origin only; its video plays from srcObject and its
 * previews are data: URLs, so the CSP needs no media or blob source.
 */
const PAGE_HEADERS = {
  'permissions-policy': 'camera=(self), microphone=(), geolocation=(), payment=(), usb=()',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** The end user's web page (HTML, not part of the JSON API): `GET /web?token=<web key>&lang=es|en|pt`. */
@ApiExcludeController()
@BackendKeys()
@Controller('web')
export class WebPageController {
  constructor(
    private readonly pages: WebPageService,
    private readonly uploads: WebUploadService,
  ) {}

  @Public()
  @Get()
  async page(
    @Query() query: PageQuery,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { status, model } = await this.pages.page(query.token, pageLanguage(query.lang, acceptLanguage));
    await reply.status(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(pageTemplate(model).value);
  }

  @Public()
  @Get('assets/page.js')
  async script(@Res() reply: FastifyReply): Promise<void> {
    await reply
      .headers({ 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' })
      .type('text/javascript; charset=utf-8')
      .send(PAGE_SCRIPT);
  }

  @Public()
  @Get('assets/capture.js')
  async capture(@Res() reply: FastifyReply): Promise<void> {
    await reply
      .headers({ 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' })
      .type('text/javascript; charset=utf-8')
      .send(CAPTURE_SCRIPT);
  }

  @Public()
  @Get('assets/page.css')
  async style(@Res() reply: FastifyReply): Promise<void> {
    await reply
      .headers({ 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' })
      .type('text/css; charset=utf-8')
      .send(PAGE_STYLE);
  }

  /** A file of the current step (document sides, selfie), with the process's key; answers the process. */
  @EndUserKeys()
  @Put('processes/:process_id/uploads/:slot')
  @RateLimitByClientAddress()
  @HttpCode(200)
  @BodyLimit(UPLOAD_BODY_LIMIT_BYTES)
  @InputLimits({ maxStringLength: UPLOAD_MAX_CHARS })
  async upload(@CurrentCaller() caller: Caller, @Param() params: UploadParams, @Body() dto: UploadDto) {
    return presentProcess(await this.uploads.upload(caller, params.process_id, params.slot, dto.file));
  }
}
