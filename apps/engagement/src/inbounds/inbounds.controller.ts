import { Caller, CurrentCaller, pageLinks, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { FinishSessionDto } from './dto/finish-session.dto';
import { ListInboundsQuery } from './dto/list-inbounds.query';
import { SaveInboundDto } from './dto/save-inbound.dto';
import { presentInbound } from './inbound.presenter';
import { InboundsService } from './inbounds.service';

/** Inbound flows: the activation message a user sends to a line to start a flow. */
@ApiTags('inbound flows')
@Controller('v1/msg')
export class InboundsController {
  constructor(
    private readonly inbounds: InboundsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post('inbounds')
  async create(@CurrentCaller() caller: Caller, @Body() dto: SaveInboundDto) {
    return presentInbound(await this.inbounds.create(caller, dto));
  }

  @Post('inbounds/:inbound_flow_id')
  @HttpCode(200)
  async update(@CurrentCaller() caller: Caller, @Param('inbound_flow_id') id: string, @Body() dto: SaveInboundDto) {
    return presentInbound(await this.inbounds.update(caller, id, dto));
  }

  @Get('inbounds')
  async list(@CurrentCaller() caller: Caller, @Query() query: ListInboundsQuery, @Req() req: FastifyRequest) {
    const page = await this.inbounds.list(caller, query.start_key);
    return { inbounds: page.items.map(presentInbound), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get('inbounds/:inbound_flow_id')
  async get(@CurrentCaller() caller: Caller, @Param('inbound_flow_id') id: string) {
    return presentInbound(await this.inbounds.get(caller, id));
  }

  @Delete('inbounds/:inbound_flow_id')
  async remove(@CurrentCaller() caller: Caller, @Param('inbound_flow_id') id: string) {
    await this.inbounds.remove(caller, id);
    return { inbound_flow_id: id, deleted: true };
  }

  @Post('finish-msgapp-session')
  @HttpCode(200)
  async finish(@CurrentCaller() caller: Caller, @Body() dto: FinishSessionDto) {
    const s = await this.inbounds.finishSession(caller, dto);
    return { session_id: s.id, flow_id: s.flowId, status: s.status, finished_at: s.finishedAt?.toISOString() };
  }
}
