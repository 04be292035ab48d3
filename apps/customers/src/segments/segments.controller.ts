import { Readable } from 'node:stream';

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
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, StreamableFile } from '@nestjs/common';
import { ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentCustomer } from '../profiles/customer.presenter';
import { CUSTOMER_EXAMPLE, CustomerResponse } from '../profiles/dto/customer.response';
import { ComputeSegmentDto } from './dto/compute-segment.dto';
import { CreateSegmentDto } from './dto/create-segment.dto';
import { ListSegmentsQuery } from './dto/list-segments.query';
import { SEGMENT_EXAMPLE, SEGMENT_SELF, SegmentResponse, SegmentVariablesResponse } from './dto/segment.response';
import { SegmentProfilesQuery } from './dto/segment-profiles.query';
import { UpdateSegmentDto } from './dto/update-segment.dto';
import { presentSegment, segmentPath } from './segment.presenter';
import { SegmentsService } from './segments.service';

const one = (s: Parameters<typeof presentSegment>[0]) => ({ segment: presentSegment(s), self: segmentPath(s.id) });

/** Segments: JSON-Logic rules over profiles, computed as durable jobs. */
@ApiTags('segments')
@BackendKeys()
@Controller('v1/customers/segments')
export class SegmentsController {
  constructor(
    private readonly segments: SegmentsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  @ApiSuccess({
    status: 201,
    type: SegmentResponse,
    wrap: 'segment',
    with: { self: { type: 'string' } },
    example: { segment: SEGMENT_EXAMPLE, self: SEGMENT_SELF },
  })
  @ApiEnvelopeErrors({ 400: ['rule: and[1].frobnicate: unknown operator', 'invalid_rule'] }, 413)
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateSegmentDto) {
    return one(await this.segments.create(caller, dto));
  }

  @Get()
  @ApiPage({ items: 'segments', type: SegmentResponse, example: [SEGMENT_EXAMPLE], self: '/v1/customers/segments' })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListSegmentsQuery, @Req() req: FastifyRequest) {
    const page = await this.segments.list(caller, query);
    return { segments: page.items.map(presentSegment), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get('variables')
  @ApiSuccess({
    type: SegmentVariablesResponse,
    description: 'The variables a rule may read, with the type of their values, for a rule builder',
    example: {
      variables: [
        { name: 'country', type: 'string', group: 'profile' },
        { name: 'latest_check_score', type: 'number', group: 'decision' },
      ],
    },
  })
  variables() {
    return { variables: this.segments.variables() };
  }

  @Get(':segment_id')
  @ApiSuccess({
    type: SegmentResponse,
    wrap: 'segment',
    with: { self: { type: 'string' } },
    example: { segment: SEGMENT_EXAMPLE, self: SEGMENT_SELF },
  })
  @ApiEnvelopeErrors({ 404: ['segment SEG019ab9f2 not found', 'segment_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('segment_id') id: string) {
    return one(await this.segments.get(caller, id));
  }

  @Put(':segment_id')
  @ApiSuccess({
    type: SegmentResponse,
    wrap: 'segment',
    with: { self: { type: 'string' } },
    example: { segment: SEGMENT_EXAMPLE, self: SEGMENT_SELF },
  })
  @ApiEnvelopeErrors(
    400,
    { 404: ['segment SEG019ab9f2 not found', 'segment_not_found'] },
    { 409: ['segment SEG019ab9f2 is being computed; wait until it finishes', 'compute_in_progress'] },
    413,
  )
  async update(@CurrentCaller() caller: Caller, @Param('segment_id') id: string, @Body() dto: UpdateSegmentDto) {
    return one(await this.segments.update(caller, id, dto));
  }

  @Delete(':segment_id')
  @ApiSuccess({
    type: SegmentResponse,
    wrap: 'segment',
    with: { message: { type: 'string' } },
    example: { message: 'segment SEG019ab9f2c4e0a1b2c3d4e5f6a7 deleted', segment: SEGMENT_EXAMPLE },
  })
  @ApiEnvelopeErrors({ 404: ['segment SEG019ab9f2 not found', 'segment_not_found'] })
  async delete(@CurrentCaller() caller: Caller, @Param('segment_id') id: string) {
    const segment = await this.segments.delete(caller, id);
    return { message: `segment ${segment.id} deleted`, segment: presentSegment(segment) };
  }

  @Post(':segment_id/compute')
  @ApiSuccess({
    status: 202,
    type: SegmentResponse,
    wrap: 'segment',
    with: { self: { type: 'string' } },
    description: 'The compute is queued (a durable job); read the segment for its progress',
    example: {
      segment: {
        ...SEGMENT_EXAMPLE,
        compute: { ...SEGMENT_EXAMPLE.compute, status: 'queued', processed: 0, matched: 0, progress: 0 },
      },
      self: SEGMENT_SELF,
    },
  })
  @ApiEnvelopeErrors(
    400,
    { 404: ['segment SEG019ab9f2 not found', 'segment_not_found'] },
    { 409: ['segment SEG019ab9f2 is being computed; wait until it finishes', 'compute_in_progress'] },
    413,
  )
  @HttpCode(202)
  async compute(@CurrentCaller() caller: Caller, @Param('segment_id') id: string, @Body() dto: ComputeSegmentDto) {
    return one(await this.segments.compute(caller, id, dto));
  }

  @Get(':segment_id/profiles')
  @ApiPage({ items: 'profiles', type: CustomerResponse, example: [CUSTOMER_EXAMPLE], self: `${SEGMENT_SELF}/profiles` })
  @ApiEnvelopeErrors(400, { 404: ['segment SEG019ab9f2 not found', 'segment_not_found'] })
  async profiles(
    @CurrentCaller() caller: Caller,
    @Param('segment_id') id: string,
    @Query() query: SegmentProfilesQuery,
    @Req() req: FastifyRequest,
  ) {
    const page = await this.segments.profiles(caller, id, query.start_key, query.limit ?? 20);
    return { profiles: page.items.map(presentCustomer), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':segment_id/export')
  @ApiSuccess({
    contentType: 'text/csv',
    description:
      'The members of the last completed compute as CSV (header line first; empty before any compute): customer_id, name, country, phone_number, email, document_type, document_number, tags (`;`-separated), latest_check_score, latest_check_status, last_transaction_date',
  })
  @ApiEnvelopeErrors({ 404: ['segment SEG019ab9f2 not found', 'segment_not_found'] })
  @ApiProduces('text/csv')
  async export(@CurrentCaller() caller: Caller, @Param('segment_id') id: string) {
    const { segment, csv } = await this.segments.exportMembers(caller, id);
    return new StreamableFile(Readable.from(csv), {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="segment-${segment.id}.csv"`,
    });
  }
}
