import { Body, Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Caller, CurrentCaller, pageLinks, PlatformConfig } from '@kyc/platform';
import { presentCheck } from './check.presenter';
import { ChecksService } from './checks.service';
import { CreateCheckDto } from './dto/create-check.dto';
import { ListChecksQuery } from './dto/list-checks.query';

@ApiTags('checks')
@Controller('v1/checks')
export class ChecksController {
  constructor(
    private readonly checks: ChecksService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateCheckDto) {
    const { check } = await this.checks.create(caller, dto);
    return { check: presentCheck(check), details: `/v1/checks/${check.id}/details`, self: `/v1/checks/${check.id}` };
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListChecksQuery, @Req() req: FastifyRequest) {
    const page = await this.checks.list(caller, query);
    return { checks: page.items.map(presentCheck), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':check_id')
  async get(@CurrentCaller() caller: Caller, @Param('check_id') checkId: string) {
    const check = await this.checks.get(caller, checkId);
    return { check: presentCheck(check), details: `/v1/checks/${check.id}/details`, self: `/v1/checks/${check.id}` };
  }
}
