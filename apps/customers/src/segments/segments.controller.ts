import { Caller, CurrentCaller, pageLinks, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentCustomer } from '../profiles/customer.presenter';
import { ComputeSegmentDto } from './dto/compute-segment.dto';
import { CreateSegmentDto } from './dto/create-segment.dto';
import { ListSegmentsQuery } from './dto/list-segments.query';
import { SegmentProfilesQuery } from './dto/segment-profiles.query';
import { UpdateSegmentDto } from './dto/update-segment.dto';
import { presentSegment, segmentPath } from './segment.presenter';
import { SegmentsService } from './segments.service';

const one = (s: Parameters<typeof presentSegment>[0]) => ({ segment: presentSegment(s), self: segmentPath(s.id) });

/** Segments: JSON-Logic rules over profiles, computed as durable jobs. */
@ApiTags('segments')
@Controller('v1/customers/segments')
export class SegmentsController {
  constructor(
    private readonly segments: SegmentsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateSegmentDto) {
    return one(await this.segments.create(caller, dto));
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListSegmentsQuery, @Req() req: FastifyRequest) {
    const page = await this.segments.list(caller, query);
    return { segments: page.items.map(presentSegment), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':segment_id')
  async get(@CurrentCaller() caller: Caller, @Param('segment_id') id: string) {
    return one(await this.segments.get(caller, id));
  }

  @Put(':segment_id')
  async update(@CurrentCaller() caller: Caller, @Param('segment_id') id: string, @Body() dto: UpdateSegmentDto) {
    return one(await this.segments.update(caller, id, dto));
  }

  @Delete(':segment_id')
  async delete(@CurrentCaller() caller: Caller, @Param('segment_id') id: string) {
    const segment = await this.segments.delete(caller, id);
    return { message: `segment ${segment.id} deleted`, segment: presentSegment(segment) };
  }

  @Post(':segment_id/compute')
  @HttpCode(202)
  async compute(@CurrentCaller() caller: Caller, @Param('segment_id') id: string, @Body() dto: ComputeSegmentDto) {
    return one(await this.segments.compute(caller, id, dto));
  }

  @Get(':segment_id/profiles')
  async profiles(
    @CurrentCaller() caller: Caller,
    @Param('segment_id') id: string,
    @Query() query: SegmentProfilesQuery,
    @Req() req: FastifyRequest,
  ) {
    const page = await this.segments.profiles(caller, id, query.start_key, query.limit ?? 20);
    return { profiles: page.items.map(presentCustomer), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }
}
