import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  pageLinks,
  PlatformConfig,
  ValidatesBody,
} from '@kyc/platform';
import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { presentCheck, presentSummary } from './check.presenter';
import { assertCheckInputs } from './check-inputs';
import { ChecksService } from './checks.service';
import {
  CHECK_DETAIL_EXAMPLE,
  CHECK_EXAMPLE,
  CheckAttachmentsResponse,
  CheckDeletedResponse,
  CheckDetailResponse,
  checkEnvelopeExample,
  CheckEnvelopeResponse,
  CheckResponse,
  CheckSummaryResponse,
  NEW_CHECK_EXAMPLE,
} from './dto/check.response';
import { CheckDetailsQuery } from './dto/check-details.query';
import { CreateCheckDto } from './dto/create-check.dto';
import { ListChecksQuery } from './dto/list-checks.query';

const links = (id: string) => ({ details: `/v1/checks/${id}/details`, self: `/v1/checks/${id}` });

@ApiTags('checks')
@BackendKeys()
@Controller('v1/checks')
export class ChecksController {
  constructor(
    private readonly checks: ChecksService,
    private readonly config: PlatformConfig,
  ) {}

  /** The body is validated by the service (the same rules apply to checks created from code). */
  @Post()
  @ValidatesBody(assertCheckInputs)
  @ApiBody({ type: CreateCheckDto })
  @ApiSuccess({ status: 201, type: CheckEnvelopeResponse, example: checkEnvelopeExample(NEW_CHECK_EXAMPLE) })
  @ApiEnvelopeErrors(400, 403, 413)
  async create(@CurrentCaller() caller: Caller, @Body() body: Record<string, unknown>) {
    const { check } = await this.checks.create(caller, body);
    return { check: presentCheck(check), ...links(check.id) };
  }

  @Get()
  @ApiPage({ items: 'checks', type: CheckResponse, example: [CHECK_EXAMPLE], self: '/v1/checks' })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListChecksQuery, @Req() req: FastifyRequest) {
    const page = await this.checks.list(caller, query);
    return { checks: page.items.map(presentCheck), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  /** Answered as JSON text (ChecksService.getJson): the hottest read copies the stored result instead of parsing it. */
  @Get(':check_id')
  @ApiSuccess({ type: CheckEnvelopeResponse, example: checkEnvelopeExample() })
  @ApiEnvelopeErrors(404)
  @Header('content-type', 'application/json; charset=utf-8')
  async get(@CurrentCaller() caller: Caller, @Param('check_id') checkId: string): Promise<string> {
    const check = await this.checks.getJson(caller, checkId);
    return `{"check":${check},${JSON.stringify(links(checkId)).slice(1)}`;
  }

  @Get(':check_id/details')
  @ApiPage({
    items: 'details',
    type: CheckDetailResponse,
    example: [CHECK_DETAIL_EXAMPLE],
    self: '/v1/checks/CHK019ab9f2c4e03f1a2b3c4d5e6f7a8b9c/details',
  })
  @ApiEnvelopeErrors(400, 404)
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
  @ApiSuccess({
    type: CheckSummaryResponse,
    example: {
      check_id: CHECK_EXAMPLE.check_id,
      status: 'completed',
      summary: CHECK_EXAMPLE.summary,
      self: `/v1/checks/${CHECK_EXAMPLE.check_id}/summarize`,
    },
  })
  @ApiEnvelopeErrors(404)
  async summarize(@CurrentCaller() caller: Caller, @Param('check_id') checkId: string) {
    return presentSummary(await this.checks.get(caller, checkId));
  }

  @Get(':check_id/attachments')
  @ApiSuccess({
    type: CheckAttachmentsResponse,
    example: { attachments: [], self: `/v1/checks/${CHECK_EXAMPLE.check_id}/attachments` },
  })
  @ApiEnvelopeErrors(404)
  async attachments(@CurrentCaller() caller: Caller, @Param('check_id') checkId: string) {
    return { attachments: await this.checks.attachments(caller, checkId), self: `/v1/checks/${checkId}/attachments` };
  }

  @Delete(':check_id')
  @ApiSuccess({ type: CheckDeletedResponse, example: { check_id: CHECK_EXAMPLE.check_id, deleted: true } })
  @ApiEnvelopeErrors(404)
  @HttpCode(200)
  async remove(@CurrentCaller() caller: Caller, @Param('check_id') checkId: string) {
    await this.checks.remove(caller, checkId);
    return { check_id: checkId, deleted: true };
  }
}
