import { Caller, Clock, Job, JOB_COMPLETED, JobQueueService, newId } from '@kyc/platform';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { FlowsService } from '../flows/flows.service';
import { ProcessEntity } from '../processes/process.entity';
import { ProcessErrorCode, ProcessException } from '../processes/processes.exception';
import { ProcessesService } from '../processes/processes.service';
import { ProcessFileEntity, ProcessFileKind } from './process-file.entity';
import { renderProcessPdf } from './process-pdf.renderer';

export const PROCESS_FILE_QUEUE = 'identity.process-file';

interface ProcessFileJob {
  file_id: string;
}

/**
 * File generation of a process (spec 2, File generation): the first GET records the file as
 * requested and queues a durable job; the job moves it to in_progress, renders it and stores it
 * as ready. Reads answer from the file's state.
 */
@Injectable()
export class ProcessFilesService implements OnModuleInit {
  constructor(
    @InjectRepository(ProcessFileEntity) private readonly files: Repository<ProcessFileEntity>,
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    private readonly processes: ProcessesService,
    private readonly flows: FlowsService,
  ) {}

  onModuleInit(): void {
    this.jobs.register<ProcessFileJob>(PROCESS_FILE_QUEUE, (job, m) => this.generate(job, m), { concurrency: 2 });
  }

  /** The file of a process the caller may read; requested (and its job queued) on the first call. */
  async request(caller: Caller, processId: string, kind: ProcessFileKind): Promise<ProcessFileEntity> {
    const process = await this.processes.get(caller, processId);
    if (kind === 'video-call-recordings')
      throw new ProcessException(
        ProcessErrorCode.FileNotFound,
        `process ${processId} has no video-call recordings: its flow has no video-call step`,
      );
    const existing = await this.files.findOneBy({ processId: process.id, kind });
    if (existing) return existing;
    const now = this.clock.now();
    const file = this.files.create({
      id: newId('FIL'),
      tenantId: process.tenantId,
      processId: process.id,
      kind,
      status: 'requested',
      contentType: null,
      content: null,
      createdAt: now,
      updatedAt: now,
    });
    const inserted = await this.dataSource.transaction(async (m) => {
      const rows = await m
        .createQueryBuilder()
        .insert()
        .into(ProcessFileEntity)
        .values(file)
        .orIgnore()
        .returning(['id'])
        .execute();
      if (!(rows.raw as unknown[]).length) return false;
      await this.jobs.enqueue<ProcessFileJob>(
        m,
        PROCESS_FILE_QUEUE,
        { file_id: file.id },
        { tenantId: file.tenantId, dedupeKey: `process-file:${file.id}` },
      );
      return true;
    });
    return inserted ? file : this.files.findOneByOrFail({ processId: process.id, kind });
  }

  /** The ready file's content (the Location of a ready file). */
  async content(caller: Caller, processId: string, fileId: string): Promise<ProcessFileEntity> {
    const process = await this.processes.get(caller, processId);
    const file = await this.files.findOneBy({ id: fileId, processId: process.id });
    if (!file || file.status !== 'ready' || !file.content)
      throw new ProcessException(ProcessErrorCode.FileNotFound, `file ${fileId} of process ${processId} is not ready`);
    return file;
  }

  /** Job: in_progress (committed, so readers see it), render, then ready with the content. */
  private async generate(job: Job<ProcessFileJob>, manager: EntityManager) {
    const file = await manager.findOneBy(ProcessFileEntity, { id: job.payload.file_id });
    if (!file || file.status === 'ready') return;
    await manager.update(ProcessFileEntity, { id: file.id }, { status: 'in_progress', updatedAt: this.clock.now() });
    const process = await manager.findOneByOrFail(ProcessEntity, { id: file.processId });
    const flow = await this.flows.get(process.tenantId, process.flowId).catch(() => null);
    const content = await renderProcessPdf(process, flow?.name, this.clock.now());
    await this.dataSource.transaction(async (m) => {
      await m.update(
        ProcessFileEntity,
        { id: file.id },
        { status: 'ready', content, contentType: 'application/pdf', updatedAt: this.clock.now() },
      );
      await this.jobs.complete(m, job);
    });
    return JOB_COMPLETED;
  }
}
