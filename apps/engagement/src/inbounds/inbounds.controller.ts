import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  pageLinks,
  PlatformConfig,
} from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { FinishSessionDto } from './dto/finish-session.dto';
import { INBOUND_EXAMPLE, InboundResponse, SESSION_EXAMPLE } from './dto/inbound.response';
import { ListInboundsQuery } from './dto/list-inbounds.query';
import { SaveInboundDto } from './dto/save-inbound.dto';
import { presentInbound } from './inbound.presenter';
import { InboundsService } from './inbounds.service';

const INBOUND_NOT_FOUND = { 404: ['inbound flow IBF5e6f not found', 'inbound_not_found'] as [string, string] };
const LINE_NOT_FOUND = { 404: ['line +573000000001 not found', 'line_not_found'] as [string, string] };
const TAKEN = {
  409: ['the line already has an inbound flow with this activation message', 'activation_message_taken'] as [
    string,
    string,
  ],
};

/** Inbound flows: the activation message a user sends to a line to start a flow. */
@ApiTags('inbound flows')
@BackendKeys()
@Controller('v1/msg')
export class InboundsController {
  constructor(
    private readonly inbounds: InboundsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post('inbounds')
  @ApiSuccess({ status: 201, type: InboundResponse, example: INBOUND_EXAMPLE })
  @ApiEnvelopeErrors(400, LINE_NOT_FOUND, TAKEN, 413)
  async create(@CurrentCaller() caller: Caller, @Body() dto: SaveInboundDto) {
    return presentInbound(await this.inbounds.create(caller, dto));
  }

  @Post('inbounds/:inbound_flow_id')
  @ApiSuccess({
    type: InboundResponse,
    example: INBOUND_EXAMPLE,
    description: 'Updated; the activation link regenerated',
  })
  @ApiEnvelopeErrors(400, INBOUND_NOT_FOUND, TAKEN, 413)
  @HttpCode(200)
  async update(@CurrentCaller() caller: Caller, @Param('inbound_flow_id') id: string, @Body() dto: SaveInboundDto) {
    return presentInbound(await this.inbounds.update(caller, id, dto));
  }

  @Get('inbounds')
  @ApiPage({ items: 'inbounds', type: InboundResponse, example: [INBOUND_EXAMPLE], self: '/v1/msg/inbounds' })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListInboundsQuery, @Req() req: FastifyRequest) {
    const page = await this.inbounds.list(caller, query.start_key);
    return { inbounds: page.items.map(presentInbound), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get('inbounds/:inbound_flow_id')
  @ApiSuccess({ type: InboundResponse, example: INBOUND_EXAMPLE })
  @ApiEnvelopeErrors(INBOUND_NOT_FOUND)
  async get(@CurrentCaller() caller: Caller, @Param('inbound_flow_id') id: string) {
    return presentInbound(await this.inbounds.get(caller, id));
  }

  @Delete('inbounds/:inbound_flow_id')
  @ApiSuccess({
    schema: { type: 'object', properties: { inbound_flow_id: { type: 'string' }, deleted: { type: 'boolean' } } },
    example: { inbound_flow_id: INBOUND_EXAMPLE.inbound_flow_id, deleted: true },
  })
  @ApiEnvelopeErrors(INBOUND_NOT_FOUND)
  async remove(@CurrentCaller() caller: Caller, @Param('inbound_flow_id') id: string) {
    await this.inbounds.remove(caller, id);
    return { inbound_flow_id: id, deleted: true };
  }

  @Post('finish-msgapp-session')
  @ApiSuccess({
    schema: {
      type: 'object',
      properties: {
        session_id: { type: 'string' },
        flow_id: { type: 'string' },
        status: { type: 'string' },
        finished_at: { type: 'string', format: 'date-time' },
      },
    },
    example: SESSION_EXAMPLE,
  })
  @ApiEnvelopeErrors(400, { 404: ['no open session of this user on this line', 'session_not_found'] }, 413)
  @HttpCode(200)
  async finish(@CurrentCaller() caller: Caller, @Body() dto: FinishSessionDto) {
    const s = await this.inbounds.finishSession(caller, dto);
    return { session_id: s.id, flow_id: s.flowId, status: s.status, finished_at: s.finishedAt?.toISOString() };
  }
}
