import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  CursorPageQuery,
  EndUserKeys,
  pageLinks,
  PlatformConfig,
} from '@kyc/platform';
import { Body, Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { EnqueueLogDto } from './dto/enqueue-log.dto';
import { PROCESS_LOG_EXAMPLE, ProcessLogResponse } from './dto/process-log.response';
import { ProcessLogsService } from './process-logs.service';

@ApiTags('processes')
@BackendKeys()
@Controller('v1/processes')
export class ProcessLogsController {
  constructor(
    private readonly logs: ProcessLogsService,
    private readonly config: PlatformConfig,
  ) {}

  /** POST /v1/processes/enqueue-log: creates a log entry. */
  @EndUserKeys()
  @Post('enqueue-log')
  @ApiSuccess({
    status: 201,
    schema: {
      type: 'object',
      required: ['log_id', 'level', 'creation_date'],
      properties: {
        log_id: { type: 'string' },
        process_id: { type: 'string' },
        level: { type: 'string', enum: ['debug', 'info', 'warn', 'error'] },
        creation_date: { type: 'string', format: 'date-time' },
      },
    },
    example: {
      log_id: 'LOG0a1b2c3d4e5f60718293a4b5c6d7e8f9',
      process_id: 'IDP0a1b2c3d4e5f60718293a4b5c6d7e8f9',
      level: 'info',
      creation_date: '2026-11-25T06:00:00.000Z',
    },
  })
  @ApiEnvelopeErrors(400, { 404: ['process IDPnope not found', 'process_not_found'] }, 413)
  async enqueue(@CurrentCaller() caller: Caller, @Body() dto: EnqueueLogDto) {
    const entry = await this.logs.enqueue(caller, dto);
    return {
      log_id: entry.id,
      ...(entry.processId ? { process_id: entry.processId } : {}),
      level: entry.level,
      creation_date: entry.createdAt.toISOString(),
    };
  }

  /** GET /v1/processes/{process_id}/logs: the process's log entries, newest first. */
  @Get(':process_id/logs')
  @ApiPage({
    items: 'logs',
    type: ProcessLogResponse,
    example: [PROCESS_LOG_EXAMPLE],
    self: `/v1/processes/${PROCESS_LOG_EXAMPLE.process_id}/logs`,
  })
  @ApiEnvelopeErrors(400, { 404: ['process IDPnope not found', 'process_not_found'] })
  async list(
    @CurrentCaller() caller: Caller,
    @Param('process_id') id: string,
    @Query() query: CursorPageQuery,
    @Req() req: FastifyRequest,
  ) {
    const page = await this.logs.list(caller, id, query.start_key, query.limit);
    return {
      logs: page.items.map((l) => ({
        log_id: l.id,
        process_id: l.processId,
        level: l.level,
        message: l.message,
        creation_date: l.createdAt.toISOString(),
      })),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }
}
