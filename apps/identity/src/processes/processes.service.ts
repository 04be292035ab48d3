import { Caller, Page, paginate, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, Repository } from 'typeorm';

import { ListProcessesQuery } from './dto/process.dto';
import { ProcessEntity } from './process.entity';
import { PROCESS_PAGE_SIZE, ProcessStore } from './process.store';
import { ProcessErrorCode, ProcessException } from './processes.exception';

const TWO_MONTHS_MS = 62 * 24 * 3600_000;

/**
 * Processes: the reads, GET /v1/processes and GET /v1/processes/{id} (and what reads one: result,
 * validations, variables; process files, logs and access links). Every change is a use case of its
 * own (use-cases/), writing through ProcessStore.
 */
@Injectable()
export class ProcessesService {
  constructor(
    @InjectRepository(ProcessEntity) private readonly processes: Repository<ProcessEntity>,
    private readonly store: ProcessStore,
  ) {}

  async list(caller: Caller, q: ListProcessesQuery): Promise<Page<ProcessEntity>> {
    if ((q.start_date === undefined) !== (q.end_date === undefined))
      throw new ValidationFailedException([
        {
          field: q.start_date === undefined ? 'start_date' : 'end_date',
          message: 'start_date and end_date go together',
        },
      ]);
    const qb = this.processes
      .createQueryBuilder('p')
      .where('p.tenantId = :tenantId AND p.deletedAt IS NULL', { tenantId: caller.tenantId });
    if (q.start_date && q.end_date) {
      const start = new Date(q.start_date);
      const end = new Date(q.end_date);
      if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()))
        throw new ValidationFailedException([{ field: 'start_date', message: 'dates must be valid' }]);
      if (end < start)
        throw new ValidationFailedException([{ field: 'end_date', message: 'end_date must not precede start_date' }]);
      if (end.getTime() - start.getTime() > TWO_MONTHS_MS || addMonths(start, 2) < end)
        throw new ValidationFailedException([{ field: 'end_date', message: 'the date range is at most 2 months' }]);
      qb.andWhere('p.createdAt >= :start AND p.createdAt <= :end', { start, end });
    }
    if (q.status) qb.andWhere('p.status = :status', { status: q.status });
    if (q.failure_status) qb.andWhere('p.failureStatus = :fs', { fs: q.failure_status });
    if (q.declined_reason?.length) qb.andWhere('p.declinedReason IN (:...dr)', { dr: q.declined_reason });
    if (q.search) {
      const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(
        new Brackets((w) => {
          w.where('p.id = :exact OR p.flowId = :exact', { exact: q.search })
            .orWhere('p.accountId ILIKE :like', { like })
            .orWhere('p.phoneNumber ILIKE :like')
            .orWhere(`p.variables->>'document_number' ILIKE :like`)
            .orWhere(`p.variables->>'cell_phone' ILIKE :like`)
            .orWhere(`p.variables->>'first_name' ILIKE :like`)
            .orWhere(`p.variables->>'last_name' ILIKE :like`);
        }),
      );
    }
    if (this.store.readsOwnOnly(caller)) qb.andWhere('p.userId = :own', { own: caller.userId });
    return paginate(qb, { startKey: q.start_key, limit: PROCESS_PAGE_SIZE });
  }

  async get(caller: Caller, id: string): Promise<ProcessEntity> {
    const p = await this.processes.findOneBy({ tenantId: caller.tenantId, id });
    if (!p || p.deletedAt || !this.store.visibleTo(caller, p))
      throw new ProcessException(ProcessErrorCode.ProcessNotFound, `process ${id} not found`);
    return p;
  }
}

function addMonths(d: Date, months: number): Date {
  const r = new Date(d);
  r.setUTCMonth(r.getUTCMonth() + months);
  return r;
}
