import { randomUUID } from 'node:crypto';

import { Caller, Clock, CurrentCaller } from '@kyc/platform';
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
