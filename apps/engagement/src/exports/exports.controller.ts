import { ENGAGEMENT_EXPORT, ENGAGEMENT_MANAGE } from '@kyc/contracts';
import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiPublic,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  pageLinks,
  PlatformConfig,
  Public,
  RequirePermissions,
} from '@kyc/platform';
import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { CreateExportDto } from './dto/create-export.dto';
import { EXPORT_EXAMPLE, ExportResponse } from './dto/export.response';
import { ListExportsQuery } from './dto/list-exports.query';
import { presentExport } from './export.presenter';
import { ExportsService } from './exports.service';

const NOT_FOUND = { 404: ['export EXP… not found', 'export_not_found'] as [string, string] };

/** Chat exports (TSV): requested, listed, read, downloaded by a signed link. */
@ApiTags('agent workspace: exports')
@BackendKeys()
@Controller('v1/engagement/chat/export')
export class ExportsController {
  constructor(
    private readonly exports: ExportsService,
    private readonly config: PlatformConfig,
  ) {}

  @RequirePermissions(ENGAGEMENT_EXPORT, ENGAGEMENT_MANAGE)
  @Post()
  @ApiSuccess({
    status: 201,
    type: ExportResponse,
    example: { ...EXPORT_EXAMPLE, status: 'pending', rows: null, download_url: undefined, completed_at: null },
  })
  @ApiEnvelopeErrors(403, 400, { 404: ['chat CHT… not found', 'chat_not_found'] })
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateExportDto) {
    return presentExport(await this.exports.create(caller, dto));
  }

  @RequirePermissions(ENGAGEMENT_EXPORT, ENGAGEMENT_MANAGE)
  @Get()
  @ApiPage({ items: 'exports', type: ExportResponse, example: [EXPORT_EXAMPLE], self: '/v1/engagement/chat/export' })
  @ApiEnvelopeErrors(403, 400)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListExportsQuery, @Req() req: FastifyRequest) {
    const page = await this.exports.list(caller, query);
    return {
      exports: page.items.map((e) => presentExport(e, this.exports.downloadLink(e))),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }

  @RequirePermissions(ENGAGEMENT_EXPORT, ENGAGEMENT_MANAGE)
  @Get(':export_id')
  @ApiSuccess({ type: ExportResponse, example: EXPORT_EXAMPLE })
  @ApiEnvelopeErrors(403, NOT_FOUND)
  async get(@CurrentCaller() caller: Caller, @Param('export_id') id: string) {
    const e = await this.exports.get(caller, id);
    return presentExport(e, this.exports.downloadLink(e));
  }

  @Public()
  @ApiPublic()
  @Get(':export_id/file')
  @ApiSuccess({
    contentType: 'text/tab-separated-values',
    description: 'The TSV file (UTF-8, a header row then one row per message)',
  })
  @ApiEnvelopeErrors({ 403: ['the download link is invalid or has expired', 'invalid_link'] }, NOT_FOUND)
  async file(
    @Param('export_id') id: string,
    @Query('expires') expires: string | undefined,
    @Query('signature') signature: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { e, content } = await this.exports.file(id, expires, signature);
    void reply
      .header('content-type', 'text/tab-separated-values; charset=utf-8')
      .header('content-disposition', `attachment; filename="${e.id}.tsv"`);
    return content;
  }
}
