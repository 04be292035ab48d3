import { Public } from '@kyc/platform';
import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { ApprovalsService } from './approvals.service';
import { ApprovalAttachmentQuery, ApprovalDecisionDto, requestedFieldAnswers } from './dto/approval-decision.dto';

/** The approval page linked from the message sent to the user's verified phone (CIBA). */
@ApiExcludeController()
@Public()
@Controller('approvals/:auth_req_id')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Get()
  async show(@Param('auth_req_id') id: string, @Query('sig') sig: string | undefined, @Res() reply: FastifyReply) {
    await reply.type('text/html; charset=utf-8').send(await this.approvals.show(id, sig ?? ''));
  }

  /**
   * The decision. The answers to the requested fields (`field_<name>`) are defined by each request's
   * authorization_details, so they are checked against that definition by the service (readFormData).
   */
  @Post()
  async decide(
    @Param('auth_req_id') id: string,
    @Body() form: ApprovalDecisionDto,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const outcome = await this.approvals.decide(id, form.sig, form.decision, requestedFieldAnswers(req.body));
    await reply.status(outcome.status).type('text/html; charset=utf-8').send(outcome.html);
  }

  @Get('attachments')
  async attachment(
    @Param('auth_req_id') id: string,
    @Query() query: ApprovalAttachmentQuery,
    @Res() reply: FastifyReply,
  ) {
    const file = await this.approvals.attachment(id, query.sig, query.s3_key);
    await reply
      .type(file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName.replace(/["\\]/g, '_')}"`)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(file.content);
  }
}
