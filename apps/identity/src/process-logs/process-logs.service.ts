import { randomUUID } from 'node:crypto';

import { Caller, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { ProcessEntity } from '../processes/process.entity';
import { ProcessStore } from '../processes/process-store';
import { ProcessErrorCode, ProcessException } from '../processes/processes.exception';
import { EnqueueLogDto } from './dto/enqueue-log.dto';
import { ProcessLogEntity } from './process-log.entity';

/** Client-side log entries of processes (POST /v1/processes/enqueue-log). */
@Injectable()
export class ProcessLogsService {
  constructor(
    @InjectRepository(ProcessLogEntity) private readonly logs: Repository<ProcessLogEntity>,
    @InjectRepository(ProcessEntity) private readonly processes: Repository<ProcessEntity>,
    private readonly store: ProcessStore,
    private readonly clock: Clock,
  ) {}

  /**
   * Records an entry. A `process_id` names a process of the caller's tenant the caller may read; a
   * web or sdk key only its own process. Anything else is 404 `process_not_found`, and nothing is stored.
   */
  async enqueue(caller: Caller, dto: EnqueueLogDto): Promise<ProcessLogEntity> {
    if (dto.process_id) await this.assertLoggable(caller, dto.process_id);
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
    return entry;
  }

  private async assertLoggable(caller: Caller, processId: string): Promise<void> {
    const p = await this.processes.findOneBy({ tenantId: caller.tenantId, id: processId });
    if (
      !p ||
      p.deletedAt ||
      !this.store.visibleTo(caller, p) ||
      (caller.keyType !== 'backend' && p.keyId !== caller.keyId)
    )
      throw new ProcessException(ProcessErrorCode.ProcessNotFound, `process ${processId} not found`);
  }
}
