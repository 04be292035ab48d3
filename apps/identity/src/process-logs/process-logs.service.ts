import { Caller, Clock, newId, Page, paginate } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { ProcessesService } from '../processes/processes.service';
import { EnqueueLogDto } from './dto/enqueue-log.dto';
import { ProcessLogEntity } from './process-log.entity';

@Injectable()
export class ProcessLogsService {
  constructor(
    @InjectRepository(ProcessLogEntity) private readonly logs: Repository<ProcessLogEntity>,
    private readonly processes: ProcessesService,
    private readonly clock: Clock,
  ) {}

  /**
   * Records a log entry. A `process_id` must name a process the caller sees (its tenant's; for a
   * temporary key, the process it created): another tenant's or key's id answers 404 and logs nothing.
   */
  async enqueue(caller: Caller, dto: EnqueueLogDto): Promise<ProcessLogEntity> {
    if (dto.process_id) await this.processes.get(caller, dto.process_id);
    const entry = this.logs.create({
      id: newId('LOG'),
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

  /**
   * The log entries of a process the caller sees (404 `process_not_found` otherwise, as its GET),
   * newest first, `limit` (default 50) a page.
   */
  async list(caller: Caller, processId: string, startKey?: string, limit = 50): Promise<Page<ProcessLogEntity>> {
    await this.processes.get(caller, processId);
    const qb = this.logs
      .createQueryBuilder('l')
      .where('l.tenant_id = :tenantId', { tenantId: caller.tenantId })
      .andWhere('l.process_id = :processId', { processId });
    return paginate(qb, { startKey, limit });
  }
}
