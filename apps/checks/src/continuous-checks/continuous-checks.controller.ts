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
import { Body, Controller, Get, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentContinuousCheck, presentRun } from './continuous-check.presenter';
import { ContinuousChecksService } from './continuous-checks.service';
import {
  CreateContinuousCheckDto,
  ListContinuousChecksQuery,
  UpdateContinuousCheckDto,
} from './dto/continuous-check.dto';
import {
  CONTINUOUS_CHECK_EXAMPLE,
  CONTINUOUS_RUN_EXAMPLE,
  ContinuousCheckHistoryResponse,
  ContinuousCheckResponse,
} from './dto/continuous-check.response';

@ApiTags('continuous')
@BackendKeys()
@Controller('v1/continuous-checks')
export class ContinuousChecksController {
  constructor(
    private readonly service: ContinuousChecksService,
    private readonly config: PlatformConfig,
  ) {}

  /** The body is validated by the service (every bad field listed). */
  @Post()
  @ApiSuccess({ status: 201, type: ContinuousCheckResponse, example: CONTINUOUS_CHECK_EXAMPLE })
  @ApiEnvelopeErrors(400, { 404: ['Check not found', 'check_not_found'] }, 413)
  @ApiBody({ type: CreateContinuousCheckDto })
  async create(@CurrentCaller() caller: Caller, @Body() body: Record<string, unknown>) {
    const { cc, original } = await this.service.create(caller, body);
    return presentContinuousCheck(cc, original);
  }

  @Put(':continuous_check_id')
  @ApiSuccess({
    type: ContinuousCheckResponse,
    example: { ...CONTINUOUS_CHECK_EXAMPLE, status: 'disabled', next_run_date: null },
  })
  @ApiEnvelopeErrors(400, { 404: ['Continuous check not found', 'continuous_check_not_found'] }, 413)
  @ApiBody({ type: UpdateContinuousCheckDto })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('continuous_check_id') id: string,
    @Body() body: Record<string, unknown>,
  ) {
    const { cc, original } = await this.service.update(caller, id, body);
    return presentContinuousCheck(cc, original);
  }

  @Get()
  @ApiPage({
    items: 'continuous_checks',
    type: ContinuousCheckResponse,
    example: [CONTINUOUS_CHECK_EXAMPLE],
    self: '/v1/continuous-checks',
  })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListContinuousChecksQuery, @Req() req: FastifyRequest) {
    const { page, originals } = await this.service.list(caller, query.start_key);
    return {
      continuous_checks: page.items.map((cc) => presentContinuousCheck(cc, originals.get(cc.checkId))),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }

  @Get(':continuous_check_id')
  @ApiSuccess({ type: ContinuousCheckResponse, example: CONTINUOUS_CHECK_EXAMPLE })
  @ApiEnvelopeErrors({ 404: ['Continuous check not found', 'continuous_check_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('continuous_check_id') id: string) {
    const { cc, original } = await this.service.get(caller, id);
    return presentContinuousCheck(cc, original);
  }

  @Get(':continuous_check_id/history')
  @ApiSuccess({
    type: ContinuousCheckHistoryResponse,
    description: 'Run logs, newest first (`next` when there is more)',
    example: {
      continuous_check_id: CONTINUOUS_CHECK_EXAMPLE.continuous_check_id,
      history: [CONTINUOUS_RUN_EXAMPLE],
      self: `/v1/continuous-checks/${CONTINUOUS_CHECK_EXAMPLE.continuous_check_id}/history`,
    },
  })
  @ApiEnvelopeErrors(400, { 404: ['Continuous check not found', 'continuous_check_not_found'] })
  async history(
    @CurrentCaller() caller: Caller,
    @Param('continuous_check_id') id: string,
    @Query() query: ListContinuousChecksQuery,
    @Req() req: FastifyRequest,
  ) {
    const page = await this.service.history(caller, id, query.start_key);
    return {
      continuous_check_id: id,
      history: page.items.map(presentRun),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }
}
