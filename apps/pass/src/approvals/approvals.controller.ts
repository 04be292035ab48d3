import { Public } from '@kyc/platform';
import { Body, Controller, Get, Headers, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { PageErrorFilter } from '../pages/page-error.filter';
import { PageAnswer, pageContext, PASS_PAGE_HEADERS } from '../pages/pass-page';
import { ApprovalsService } from './approvals.service';
import { ApprovalAttachmentQuery, ApprovalDecisionDto, requestedFieldAnswers } from './dto/approval-decision.dto';

const send = (reply: FastifyReply, page: PageAnswer) =>
  reply.status(page.status).headers(PASS_PAGE_HEADERS).type('text/html; charset=utf-8').send(page.html);

/**
 * The approval page linked from the message sent to the user's verified phone (CIBA), in the phone's
 * language (Accept-Language; `?ui_locales=` first); every failure is a page (PageErrorFilter).
 */
@ApiExcludeController()
@Public()
@UseFilters(PageErrorFilter)
@Controller('approvals/:auth_req_id')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Get()
  async show(
    @Param('auth_req_id') id: string,
    @Query('sig') sig: unknown,
    @Query('ui_locales') uiLocales: unknown,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const c = pageContext(uiLocales, acceptLanguage);
    await send(reply, await this.approvals.show(id, typeof sig === 'string' ? sig : '', c));
  }

  /**
   * The decision. The answers to the requested fields (`field_<name>`) are defined by each request's
   * authorization_details, so they are checked against that definition by the service (readFormData).
   */
  @Post()
  async decide(
    @Param('auth_req_id') id: string,
    @Body() form: ApprovalDecisionDto,
    @Query('ui_locales') uiLocales: unknown,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const c = pageContext(uiLocales, req.headers['accept-language']);
    await send(reply, await this.approvals.decide(id, form.sig, form.decision, requestedFieldAnswers(req.body), c));
  }

  @Get('attachments')
  async attachment(
    @Param('auth_req_id') id: string,
    @Query() query: ApprovalAttachmentQuery,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const file = await this.approvals.attachment(id, query.sig, query.s3_key, pageContext(undefined, acceptLanguage));
    await reply
      .type(file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName.replace(/["\\]/g, '_')}"`)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(file.content);
  }
}
