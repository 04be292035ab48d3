import { Public } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';

import { ApprovalsService } from './approvals.service';
import { ApprovalDecisionDto } from './dto/approval-decision.dto';

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

  @Post()
  @HttpCode(200)
  async decide(@Param('auth_req_id') id: string, @Body() form: ApprovalDecisionDto, @Res() reply: FastifyReply) {
    await reply.type('text/html; charset=utf-8').send(await this.approvals.decide(id, form.sig, form.decision));
  }
}
