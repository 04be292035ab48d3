import {
  ApiEnvelopeErrors,
  ApiPublic,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  PlatformConfig,
  Public,
} from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { presentBatch } from './batch.presenter';
import { BatchesService } from './batches.service';
import {
  BATCH_CREATED_EXAMPLE,
  BATCH_EXAMPLE,
  BatchCreatedResponse,
  batchEnvelopeExample,
  BatchEnvelopeResponse,
  BatchReportGeneratingResponse,
} from './dto/batch.response';
import { CreateBatchDto } from './dto/create-batch.dto';
import { RequestReportDto } from './dto/request-report.dto';
import { UploadLinkQuery } from './dto/upload-link.query';

/** The route file_upload_link points at (local storage); the raw-body parser is scoped to it. */
export const BATCH_FILE_ROUTE = '/v1/batches/:batch_id/file';
const links = (id: string) => ({ self: `/v1/batches/${id}`, report_link: `/v1/batches/${id}/report` });
const MIME = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
};

@ApiTags('batches')
@BackendKeys()
@Controller('v1/batches')
export class BatchesController {
  constructor(
    private readonly batches: BatchesService,
    private readonly config: PlatformConfig,
  ) {}

  /** The body is validated by the service (columns_mapping.<input> fields have dynamic names). */
  @Post()
  @ApiSuccess({ status: 201, type: BatchCreatedResponse, example: BATCH_CREATED_EXAMPLE })
  @ApiEnvelopeErrors(400, 403, 413)
  @ApiBody({ type: CreateBatchDto })
  async create(@CurrentCaller() caller: Caller, @Body() body: Record<string, unknown>, @Req() req: FastifyRequest) {
    const base = this.config.PUBLIC_URL ? this.config.publicUrl : `${req.protocol}://${req.host}`;
    const { batch, link } = await this.batches.create(caller, body, base);
    return { batch: presentBatch(batch), columns: batch.columns, file_upload_link: link, ...links(batch.id) };
  }

  /** PUT {file_upload_link}: the xlsx file as the raw body; authenticated by the link's signature. */
  @Public()
  @Put(':batch_id/file')
  @ApiPublic()
  @ApiSuccess({
    type: BatchEnvelopeResponse,
    example: batchEnvelopeExample({ ...BATCH_EXAMPLE, status: 'file_uploaded', progress: undefined }),
  })
  @ApiEnvelopeErrors(
    { 400: ['The file is not a readable xlsx spreadsheet', 'invalid_file'] },
    { 401: ['Invalid upload link', 'invalid_upload_link'] },
    { 403: ['The upload link has expired', 'upload_link_expired'] },
    { 403: ['The upload link is spent: 3 files could not be used', 'upload_link_spent'] },
    { 404: ['Batch not found', 'batch_not_found'] },
    { 409: ['A file was already uploaded to this batch', 'file_already_uploaded'] },
    { 413: ['The file is larger than the batch limit', 'file_too_large'] },
  )
  @ApiConsumes(MIME.xlsx, 'application/octet-stream')
  async upload(@Param('batch_id') batchId: string, @Query() query: UploadLinkQuery, @Req() req: FastifyRequest) {
    const batch = await this.batches.upload(batchId, query.expires, query.signature, req.body);
    return { batch: presentBatch(batch), ...links(batch.id) };
  }

  @Post(':batch_id/start')
  @ApiSuccess({ type: BatchEnvelopeResponse, example: batchEnvelopeExample({ ...BATCH_EXAMPLE, progress: undefined }) })
  @ApiEnvelopeErrors(
    { 404: ['Batch not found', 'batch_not_found'] },
    { 409: ['Upload the file before starting the batch', 'batch_file_not_uploaded'] },
  )
  @HttpCode(200)
  async start(@CurrentCaller() caller: Caller, @Param('batch_id') batchId: string) {
    const batch = await this.batches.start(caller, batchId);
    return { batch: presentBatch(batch), ...links(batch.id) };
  }

  /** Stops the batch. */
  @Put(':batch_id')
  @ApiSuccess({ type: BatchEnvelopeResponse, example: batchEnvelopeExample({ ...BATCH_EXAMPLE, status: 'stopped' }) })
  @ApiEnvelopeErrors(
    { 404: ['Batch not found', 'batch_not_found'] },
    { 409: ['The batch has finished', 'batch_finished'] },
  )
  async stop(@CurrentCaller() caller: Caller, @Param('batch_id') batchId: string) {
    const batch = await this.batches.stop(caller, batchId);
    return { batch: presentBatch(batch, await this.batches.progress(batch)), ...links(batch.id) };
  }

  @Get(':batch_id')
  @ApiSuccess({ type: BatchEnvelopeResponse, example: batchEnvelopeExample() })
  @ApiEnvelopeErrors({ 404: ['Batch not found', 'batch_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('batch_id') batchId: string) {
    const batch = await this.batches.get(caller, batchId);
    return { batch: presentBatch(batch, await this.batches.progress(batch)), ...links(batch.id) };
  }

  @Post(':batch_id/report')
  @ApiSuccess({
    status: 202,
    type: BatchEnvelopeResponse,
    example: batchEnvelopeExample({
      ...BATCH_EXAMPLE,
      report: { format: 'xlsx', status: 'generating', requested_at: '2026-11-25T06:02:00.000Z', generated_at: null },
    }),
  })
  @ApiEnvelopeErrors(400, { 404: ['Batch not found', 'batch_not_found'] })
  @HttpCode(202)
  async requestReport(
    @CurrentCaller() caller: Caller,
    @Param('batch_id') batchId: string,
    @Body() dto: RequestReportDto,
  ) {
    const batch = await this.batches.requestReport(caller, batchId, dto.format);
    return { batch: presentBatch(batch), ...links(batch.id) };
  }

  /** 202 while the report is generated, then the file (xlsx, csv or pdf). */
  @Get(':batch_id/report')
  @ApiProduces('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv', 'application/pdf')
  @ApiSuccess({
    contentType: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv', 'application/pdf'],
    description: 'The report (xlsx, or csv or pdf when requested so; the same columns in each)',
  })
  @ApiSuccess({
    status: 202,
    type: BatchReportGeneratingResponse,
    description: 'Still generating',
    example: {
      batch_id: BATCH_EXAMPLE.batch_id,
      report: { format: 'xlsx', status: 'generating' },
      self: `/v1/batches/${BATCH_EXAMPLE.batch_id}/report`,
    },
  })
  @ApiEnvelopeErrors(
    { 404: ['Batch not found', 'batch_not_found'] },
    {
      409: [
        'no report was requested: POST /v1/batches/{batch_id}/report with format first',
        'batch_report_not_requested',
      ],
    },
  )
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
