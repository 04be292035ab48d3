import { Public } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { CodeFormDto, ConsentFormDto, EmailFormDto } from './dto/interaction-forms.dto';
import { InteractionOutcome, InteractionsService } from './interactions.service';

const answer = async (reply: FastifyReply, outcome: InteractionOutcome) =>
  'redirect' in outcome
    ? reply.redirect(outcome.redirect, 303)
    : reply
        .status(outcome.status ?? 200)
        .type('text/html; charset=utf-8')
        .send(outcome.html);

/** The end-user pages of the authorization flow (the interaction cookie identifies the flow). */
@ApiExcludeController()
@Public()
@Controller('interaction/:uid')
export class InteractionsController {
  constructor(private readonly interactions: InteractionsService) {}

  @Get()
  async show(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    await answer(reply, await this.interactions.show(req.raw, reply.raw));
  }

  @Post('email')
  @HttpCode(200)
  async email(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Body() form: EmailFormDto) {
    await answer(reply, await this.interactions.submitEmail(req.raw, reply.raw, form.email, req.ip));
  }

  @Post('code')
  @HttpCode(200)
  async code(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Body() form: CodeFormDto) {
    await answer(reply, await this.interactions.submitCode(req.raw, reply.raw, form.code));
  }

  @Post('consent')
  @HttpCode(200)
  async consent(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Body() form: ConsentFormDto) {
    await answer(reply, await this.interactions.consent(req.raw, reply.raw, form.decision));
  }

  @Post('abort')
  @HttpCode(200)
  async abort(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    await answer(reply, await this.interactions.abort(req.raw, reply.raw));
  }
}
