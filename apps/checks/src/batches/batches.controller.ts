import { Caller, CurrentCaller, PlatformConfig, Public } from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { presentBatch } from './batch.presenter';
import { BatchesService } from './batches.service';
import { CreateBatchDto } from './dto/create-batch.dto';
import { RequestReportDto } from './dto/request-report.dto';
import { UploadLinkQuery } from './dto/upload-link.query';

/** The route file_upload_link points at (local storage); the raw-body parser is scoped to it. */
export const BATCH_FILE_ROUTE = '/v1/batches/:batch_id/file';
const links = (id: string) => ({ self: `/v1/batches/${id}`, report_link: `/v1/batches/${id}/report` });
const MIME = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

@ApiTags('batches')
@Controller('v1/batches')
export class BatchesController {
  constructor(
    private readonly batches: BatchesService,
    private readonly config: PlatformConfig,
  ) {}

  /** The body is validated by the service (columns_mapping.<input> fields have dynamic names). */
  @Post()
  @ApiBody({ type: CreateBatchDto })
  async create(@CurrentCaller() caller: Caller, @Body() body: Record<string, unknown>, @Req() req: FastifyRequest) {
    const base = this.config.PUBLIC_URL ? this.config.publicUrl : `${req.protocol}://${req.host}`;
    const { batch, link } = await this.batches.create(caller, body, base);
    return { batch: presentBatch(batch), columns: batch.columns, file_upload_link: link, ...links(batch.id) };
  }

  /** PUT {file_upload_link}: the xlsx file as the raw body; authenticated by the link's signature. */
  @Public()
  @Put(':batch_id/file')
  @ApiConsumes(MIME.xlsx, 'application/octet-stream')
  async upload(@Param('batch_id') batchId: string, @Query() query: UploadLinkQuery, @Req() req: FastifyRequest) {
    const batch = await this.batches.upload(batchId, query.expires, query.signature, req.body);
    return { batch: presentBatch(batch), ...links(batch.id) };
  }

  @Post(':batch_id/start')
  @HttpCode(200)
  async start(@CurrentCaller() caller: Caller, @Param('batch_id') batchId: string) {
    const batch = await this.batches.start(caller, batchId);
    return { batch: presentBatch(batch), ...links(batch.id) };
  }

  /** Stops the batch. */
  @Put(':batch_id')
  async stop(@CurrentCaller() caller: Caller, @Param('batch_id') batchId: string) {
    const batch = await this.batches.stop(caller, batchId);
    return { batch: presentBatch(batch, await this.batches.progress(batch)), ...links(batch.id) };
  }

  @Get(':batch_id')
  async get(@CurrentCaller() caller: Caller, @Param('batch_id') batchId: string) {
    const batch = await this.batches.get(caller, batchId);
    return { batch: presentBatch(batch, await this.batches.progress(batch)), ...links(batch.id) };
  }

  @Post(':batch_id/report')
  @HttpCode(202)
  async requestReport(
    @CurrentCaller() caller: Caller,
    @Param('batch_id') batchId: string,
    @Body() dto: RequestReportDto,
  ) {
    const batch = await this.batches.requestReport(caller, batchId, dto.format);
    return { batch: presentBatch(batch), ...links(batch.id) };
  }

  /** 202 while the report is generated, then the file (xlsx or csv). */
  @Get(':batch_id/report')
  async report(
    @CurrentCaller() caller: Caller,
    @Param('batch_id') batchId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { batch, content } = await this.batches.report(caller, batchId);
    if (!content) {
      void reply.status(202);
      return {
        batch_id: batch.id,
        report: { format: batch.reportFormat, status: 'generating' },
        self: `/v1/batches/${batch.id}/report`,
      };
    }
    const format = batch.reportFormat ?? 'xlsx';
    void reply
      .header('content-type', MIME[format])
      .header('content-disposition', `attachment; filename="${batch.id}-report.${format}"`);
    return content;
  }
}
