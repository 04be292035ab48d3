import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  CursorPageQuery,
  pageLinks,
  PlatformConfig,
} from '@kyc/platform';
import { Body, Controller, Delete, Get, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { CreateFlowDto, UpdateFlowDto } from './dto/flow.dto';
import { FLOW_EXAMPLE, FlowResponse } from './dto/flow.response';
import { presentFlow } from './flow.presenter';
import { FlowsService } from './flows.service';

@ApiTags('flows')
@BackendKeys()
@Controller('v1/flows')
export class FlowsController {
  constructor(
    private readonly flows: FlowsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  @ApiSuccess({ status: 201, type: FlowResponse, example: FLOW_EXAMPLE })
  @ApiEnvelopeErrors(400, 413)
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateFlowDto) {
    return presentFlow(await this.flows.create(caller.tenantId, dto));
  }

  @Get()
  @ApiPage({ items: 'flows', type: FlowResponse, example: [FLOW_EXAMPLE], self: '/v1/flows' })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: CursorPageQuery, @Req() req: FastifyRequest) {
    const page = await this.flows.list(caller.tenantId, query.start_key);
    return { flows: page.items.map(presentFlow), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':flow_id')
  @ApiSuccess({ type: FlowResponse, example: FLOW_EXAMPLE })
  @ApiEnvelopeErrors({ 404: ['flow IDFnope not found', 'flow_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('flow_id') id: string) {
    return presentFlow(await this.flows.get(caller.tenantId, id));
  }

  @Put(':flow_id')
  @ApiSuccess({ type: FlowResponse, example: FLOW_EXAMPLE })
  @ApiEnvelopeErrors(400, { 404: ['flow IDFnope not found', 'flow_not_found'] }, 413)
  async update(@CurrentCaller() caller: Caller, @Param('flow_id') id: string, @Body() dto: UpdateFlowDto) {
    return presentFlow(await this.flows.update(caller.tenantId, id, dto));
  }

  @Delete(':flow_id')
  @ApiSuccess({ type: FlowResponse, example: FLOW_EXAMPLE, description: 'The deleted flow' })
  @ApiEnvelopeErrors({ 404: ['flow IDFnope not found', 'flow_not_found'] })
  async remove(@CurrentCaller() caller: Caller, @Param('flow_id') id: string) {
    return presentFlow(await this.flows.remove(caller.tenantId, id));
  }
}
