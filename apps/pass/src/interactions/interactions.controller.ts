import { Public } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { PageErrorFilter } from '../pages/page-error.filter';
import { PASS_PAGE_HEADERS } from '../pages/pass-page';
import { CodeFormDto, ConsentFormDto, EmailFormDto } from './dto/interaction-forms.dto';
import { InteractionOutcome, InteractionsService } from './interactions.service';

const answer = async (reply: FastifyReply, outcome: InteractionOutcome) =>
  'redirect' in outcome
    ? reply.redirect(outcome.redirect, 303)
    : reply.status(outcome.status).headers(PASS_PAGE_HEADERS).type('text/html; charset=utf-8').send(outcome.html);

/**
 * The end-user pages of the authorization flow (the interaction cookie identifies the flow). Every
 * failure is a page (PageErrorFilter), never the JSON envelope.
 */
@ApiExcludeController()
@Public()
@UseFilters(PageErrorFilter)
@Controller('interaction/:uid')
export class InteractionsController {
  constructor(private readonly interactions: InteractionsService) {}

  /** `client_id` (in the interaction URL pass redirects to) names the application on the "expired" page. */
  @Get()
  async show(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('uid') uid: string,
    @Query('client_id') clientId: unknown,
  ) {
    await answer(
      reply,
      await this.interactions.show(req.raw, reply.raw, uid, typeof clientId === 'string' ? clientId : undefined),
    );
  }

  @Post('email')
  @HttpCode(200)
  async email(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('uid') uid: string,
    @Body() form: EmailFormDto,
  ) {
    await answer(
      reply,
      await this.interactions.submitEmail(req.raw, reply.raw, uid, form.email, req.ip, form.resend === '1'),
    );
  }

  @Post('code')
  @HttpCode(200)
  async code(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('uid') uid: string,
    @Body() form: CodeFormDto,
  ) {
    await answer(reply, await this.interactions.submitCode(req.raw, reply.raw, uid, form.code, form.email));
  }

  @Post('consent')
  @HttpCode(200)
  async consent(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('uid') uid: string,
    @Body() form: ConsentFormDto,
  ) {
    await answer(reply, await this.interactions.consent(req.raw, reply.raw, uid, form.decision));
  }

  @Post('abort')
  @HttpCode(200)
  async abort(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('uid') uid: string) {
    await answer(reply, await this.interactions.abort(req.raw, reply.raw, uid));
  }
}
