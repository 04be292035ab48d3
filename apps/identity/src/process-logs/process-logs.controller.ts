import { randomUUID } from 'node:crypto';

import { ApiEnvelopeErrors, ApiSuccess, Caller, Clock, CurrentCaller } from '@kyc/platform';
import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { EnqueueLogDto } from './dto/enqueue-log.dto';
import { ProcessLogEntity } from './process-log.entity';

@ApiTags('processes')
@Controller('v1/processes')
export class ProcessLogsController {
  constructor(
    @InjectRepository(ProcessLogEntity) private readonly logs: Repository<ProcessLogEntity>,
    private readonly clock: Clock,
  ) {}

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
  @ApiEnvelopeErrors(400, 413)
  async enqueue(@CurrentCaller() caller: Caller, @Body() dto: EnqueueLogDto) {
    const entry = this.logs.create({
      id: `LOG${randomUUID().replace(/-/g, '')}`,
      tenantId: caller.tenantId,
      processId: dto.process_id ?? null,
      level: dto.level ?? 'info',
      message: dto.message,
      keyId: caller.keyId,
      createdAt: this.clock.now(),
    });
    await this.logs.insert(entry);
    return {
      log_id: entry.id,
      ...(entry.processId ? { process_id: entry.processId } : {}),
      level: entry.level,
      creation_date: entry.createdAt.toISOString(),
    };
  }
}
