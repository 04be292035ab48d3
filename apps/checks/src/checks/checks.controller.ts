import { Caller, CurrentCaller, pageLinks, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentCheck, presentSummary } from './check.presenter';
import { ChecksService } from './checks.service';
import { CheckDetailsQuery } from './dto/check-details.query';
import { CreateCheckDto } from './dto/create-check.dto';
import { ListChecksQuery } from './dto/list-checks.query';

const links = (id: string) => ({ details: `/v1/checks/${id}/details`, self: `/v1/checks/${id}` });

@ApiTags('checks')
@Controller('v1/checks')
export class ChecksController {
  constructor(
    private readonly checks: ChecksService,
    private readonly config: PlatformConfig,
  ) {}

  /** The body is validated by the service (the same rules apply to checks created from code). */
  @Post()
  @ApiBody({ type: CreateCheckDto })
  async create(@CurrentCaller() caller: Caller, @Body() body: Record<string, unknown>) {
    const { check } = await this.checks.create(caller, body);
    return { check: presentCheck(check), ...links(check.id) };
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListChecksQuery, @Req() req: FastifyRequest) {
    const page = await this.checks.list(caller, query);
    return { checks: page.items.map(presentCheck), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  /** Answered as JSON text (ChecksService.getJson): the hottest read copies the stored result instead of parsing it. */
  @Get(':check_id')
  @Header('content-type', 'application/json; charset=utf-8')
  async get(@CurrentCaller() caller: Caller, @Param('check_id') checkId: string): Promise<string> {
    const check = await this.checks.getJson(caller, checkId);
    return `{"check":${check},${JSON.stringify(links(checkId)).slice(1)}`;
  }

  @Get(':check_id/details')
  async details(
    @CurrentCaller() caller: Caller,
    @Param('check_id') checkId: string,
    @Query() query: CheckDetailsQuery,
    @Req() req: FastifyRequest,
  ) {
    const page = await this.checks.details(caller, checkId, query);
    return { details: page.items, ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':check_id/summarize')
  async summarize(@CurrentCaller() caller: Caller, @Param('check_id') checkId: string) {
    return presentSummary(await this.checks.get(caller, checkId));
  }

  @Get(':check_id/attachments')
  async attachments(@CurrentCaller() caller: Caller, @Param('check_id') checkId: string) {
    return { attachments: await this.checks.attachments(caller, checkId), self: `/v1/checks/${checkId}/attachments` };
  }

  @Delete(':check_id')
  @HttpCode(200)
  async remove(@CurrentCaller() caller: Caller, @Param('check_id') checkId: string) {
    await this.checks.remove(caller, checkId);
    return { check_id: checkId, deleted: true };
  }
}
