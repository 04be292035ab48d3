import { ApiEnvelopeErrors, ApiSuccess, Caller, CurrentCaller } from '@kyc/platform';
import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { EnqueueLogDto } from './dto/enqueue-log.dto';
import { ProcessLogsService } from './process-logs.service';

@ApiTags('processes')
@Controller('v1/processes')
export class ProcessLogsController {
  constructor(private readonly logs: ProcessLogsService) {}

  /** POST /v1/processes/enqueue-log: creates a log entry. */
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
  @ApiEnvelopeErrors(400, { 404: ['process IDP0a1b2c3d4e5f60718293a4b5c6d7e8f9 not found', 'process_not_found'] }, 413)
  async enqueue(@CurrentCaller() caller: Caller, @Body() dto: EnqueueLogDto) {
    const entry = await this.logs.enqueue(caller, dto);
    return {
      log_id: entry.id,
      ...(entry.processId ? { process_id: entry.processId } : {}),
      level: entry.level,
      creation_date: entry.createdAt.toISOString(),
    };
  }
}
