import { randomUUID } from 'node:crypto';

import { countryPermission } from '@kyc/contracts';
import { Caller, Clock, FieldError, JobQueueService, toFieldErrors, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DataSource, Repository } from 'typeorm';

import { isBuiltInType } from '../checks/check-inputs';
import { ChecksConfig } from '../config/checks.config';
import { endDateError, FREQUENCY_MESSAGE, parseFrequency } from '../continuous-checks/frequency';
import { BatchEntity, ReportFormat } from './batch.entity';
import { BatchStore } from './batch.store';
import { columnsFromMapping } from './batch-columns';
import { UPLOAD_LINK_TTL_MS } from './batch-upload-link';
import { BatchErrorCode, BatchException } from './batches.exception';
import { CreateBatchDto } from './dto/create-batch.dto';
import { BatchSpreadsheetReader } from './spreadsheet/batch-spreadsheet-reader';
import { SpreadsheetError } from './spreadsheet/spreadsheet-limits';
import { BatchFileStorage, LocalBatchFileStorage } from './storage/batch-file-storage';

/** Rows an UPDATE ... RETURNING touched (TypeORM gives [rows, count] for UPDATE on Postgres). */
export const updatedRows = (result: unknown[]): number => (Array.isArray(result[0]) ? result[0].length : result.length);

/** The rows an UPDATE ... RETURNING gave through EntityManager.query (TypeORM answers [rows, count] for them). */
export const returnedRows = <T>(result: unknown[]): T[] => (Array.isArray(result[0]) ? result[0] : result) as T[];

const triesLeft = (left: number) =>
  left > 0
    ? ` (the link takes ${left} more ${left === 1 ? 'file' : 'files'})`
    : ' (the link is now spent: create a new batch)';

export const newBatchId = () => `BCH${randomUUID().replace(/-/g, '')}`;
export const BATCH_LOAD_QUEUE = 'checks.batch.load';
export const BATCH_ROWS_QUEUE = 'checks.batch.rows';
export const BATCH_REPORT_QUEUE = 'checks.batch.report';

export interface BatchProgress {
  rows_total: number;
  rows_pending: number;
  rows_created: number;
  rows_failed: number;
  rows_stopped: number;
  checks_completed: number;
  checks_error: number;
  checks_in_progress: number;
}

/**
 * Batches: a spreadsheet of check inputs, one check per row. Creation validates the batch and the
 * column mapping and issues a signed upload link (30 minutes, first file only); start queues a
 * durable load job (batches.worker.ts) which reads the file into batch_rows and creates the checks
 * in chunks through ChecksService.create (the same rules as POST /v1/checks).
 */
@Injectable()
export class BatchesService {
  constructor(
    @InjectRepository(BatchEntity) private readonly batches: Repository<BatchEntity>,
    private readonly dataSource: DataSource,
    private readonly store: BatchStore,
    private readonly storage: BatchFileStorage,
    private readonly spreadsheets: BatchSpreadsheetReader,
    private readonly jobs: JobQueueService,
    private readonly config: ChecksConfig,
    private readonly clock: Clock,
  ) {}

  async create(
    caller: Caller,
    body: Record<string, unknown>,
    serviceBaseUrl: string,
  ): Promise<{ batch: BatchEntity; link: string }> {
    const plain = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    const dto = plainToInstance(CreateBatchDto, plain);
    const errors: FieldError[] = toFieldErrors(
      validateSync(dto, {
        whitelist: true,
        forbidUnknownValues: false,
        validationError: { target: false, value: false },
      }),
    );
    const bad = (field: string) => errors.some((e) => e.field === field);
    const now = this.clock.now();
    // A continuous batch: frequency and end_date together, the rules of continuous checks.
    if (dto.frequency !== undefined || dto.end_date !== undefined) {
      const frequency = parseFrequency(dto.frequency);
      if (dto.frequency === undefined)
        errors.push({ field: 'frequency', message: 'frequency is required with end_date' });
      else if (!frequency && !bad('frequency')) errors.push({ field: 'frequency', message: FREQUENCY_MESSAGE });
      const endError = bad('end_date') ? undefined : endDateError(dto.end_date, frequency, now);
      if (endError) errors.push(endError);
    }
    const type = typeof dto.type === 'string' ? dto.type : '';
    const { columns, errors: mappingErrors } = columnsFromMapping(plain, isBuiltInType(type) ? type : 'custom');
    errors.push(...mappingErrors);
    if (!bad('country') && !bad('type') && !isBuiltInType(type)) {
      if (!(await this.store.customTypeExists(this.dataSource.manager, caller.tenantId, dto.country, type)))
        errors.push({
          field: 'type',
          message: `type must be person, vehicle, company or the name of a custom type of ${dto.country}`,
        });
    }
    if (errors.length) throw new ValidationFailedException(errors);
    const perm = countryPermission(dto.country);
    caller.requireAny(...(perm ? [perm] : []), 'checks.country_all');

    const batch = this.batches.create({
      id: newBatchId(),
      tenantId: caller.tenantId,
      service: dto.service,
      country: dto.country,
      type,
      endDate: dto.end_date ?? null,
      frequency: dto.frequency ?? null,
      columns,
      status: 'created',
      createdBy: caller.userId,
      keyVersion: caller.keyVersion,
      uploadExpiresAt: new Date(now.getTime() + UPLOAD_LINK_TTL_MS),
      fileUploadedAt: null,
      fileSize: null,
      uploadAttempts: 0,
      rowsTotal: 0,
      error: null,
      reportFormat: null,
      reportStatus: null,
      reportRequestedAt: null,
      reportGeneratedAt: null,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      finishedAt: null,
    });
    await this.batches.insert(batch);
    return { batch, link: await this.storage.uploadLink(batch, batch.uploadExpiresAt, serviceBaseUrl, now) };
  }

  async get(caller: Caller, batchId: string): Promise<BatchEntity> {
    const batch = await this.batches.findOneBy({ tenantId: caller.tenantId, id: batchId });
    if (!batch) throw new BatchException(BatchErrorCode.BatchNotFound, `batch ${batchId} not found`);
    return batch;
  }

  /**
   * PUT {file_upload_link}: the signature (HMAC over the batch id and expiry) authenticates it. A
   * forged or incomplete link is 401, an expired one 403, a second file 409; a file that is not a
   * readable xlsx with rows (or goes over a limit of the spreadsheet reader) is 400. Each file sent counts
   * against the link before it is read: after CHECKS_BATCH_UPLOAD_ATTEMPTS tries the link is spent (403), so
   * a link cannot make the service read bad files again and again.
   */
  async upload(
    batchId: string,
    expires: string | undefined,
    signature: string | undefined,
    content: unknown,
  ): Promise<BatchEntity> {
    if (!(this.storage instanceof LocalBatchFileStorage))
      throw new BatchException(
        BatchErrorCode.InvalidUploadLink,
        'files of this service are uploaded to its S3 storage',
      );
    const expiry = Number(expires);
    if (
      !expires ||
      !signature ||
      !Number.isSafeInteger(expiry) ||
      !this.storage.signer.verify(batchId, expiry, signature)
    ) {
      throw new BatchException(
        BatchErrorCode.InvalidUploadLink,
        'the upload link is not valid: use the file_upload_link of the batch as given',
      );
    }
    const now = this.clock.now();
    if (expiry * 1000 <= now.getTime())
      throw new BatchException(
        BatchErrorCode.UploadLinkExpired,
        'the upload link expired (links are valid 30 minutes): create a new batch',
      );
    const batch = await this.batches.findOneBy({ id: batchId });
    if (!batch) throw new BatchException(BatchErrorCode.BatchNotFound, `batch ${batchId} not found`);
    if (batch.status !== 'created')
      throw new BatchException(
        BatchErrorCode.FileAlreadyUploaded,
        'a file was already uploaded to this batch (first file only)',
      );
    if (!Buffer.isBuffer(content) || !content.length) {
      throw new BatchException(BatchErrorCode.InvalidFile, 'the body must be the xlsx file', [
        { field: 'file', message: 'an xlsx file is required as the request body' },
      ]);
    }
    const left = await this.takeUploadAttempt(batch.id, now);
    const rows = await this.countRows(batch, content, left);
    if (!rows)
      throw new BatchException(BatchErrorCode.InvalidFile, `the file has no rows${triesLeft(left)}`, [
        { field: 'file', message: 'the first worksheet has no data rows' },
      ]);
    return this.dataSource.transaction(async (m) => {
      const updated = await this.store.markFileUploaded(m, batch.id, now, content.length, rows);
      if (!updatedRows(updated))
        throw new BatchException(
          BatchErrorCode.FileAlreadyUploaded,
          'a file was already uploaded to this batch (first file only)',
        );
      await this.storage.save(m, batch, content, now);
      return {
        ...batch,
        status: 'file_uploaded' as const,
        fileUploadedAt: now,
        fileSize: content.length,
        rowsTotal: rows,
        updatedAt: now,
      };
    });
  }

  /**
   * Counts a file against the link, atomically (concurrent uploads cannot take more tries than the link has):
   * the tries left after this one. 403 upload_link_spent when none is left; 409 once a file was taken.
   */
  private async takeUploadAttempt(batchId: string, now: Date): Promise<number> {
    const max = this.config.CHECKS_BATCH_UPLOAD_ATTEMPTS;
    const taken = returnedRows<{ upload_attempts: number }>(
      await this.store.takeUploadAttempt(this.dataSource.manager, batchId, now, max),
    );
    if (taken.length) return max - taken[0].upload_attempts;
    const current = await this.store.status(this.dataSource.manager, batchId);
    if (current?.status !== 'created')
      throw new BatchException(
        BatchErrorCode.FileAlreadyUploaded,
        'a file was already uploaded to this batch (first file only)',
      );
    throw new BatchException(
      BatchErrorCode.UploadLinkSpent,
      `the upload link is spent: it was given ${max} files that could not be used; create a new batch`,
    );
  }

  private async countRows(batch: BatchEntity, content: Buffer, left: number): Promise<number> {
    try {
      return await this.spreadsheets.count(content, batch.columns);
    } catch (err) {
      if (err instanceof SpreadsheetError)
        throw new BatchException(BatchErrorCode.InvalidFile, `${err.message}${triesLeft(left)}`, [
          { field: 'file', message: err.message },
        ]);
      throw err;
    }
  }

  /** Starts creating checks: 409 before the file is uploaded (local storage) or once started. */
  async start(caller: Caller, batchId: string): Promise<BatchEntity> {
    const batch = await this.get(caller, batchId);
    const startable = this.storage.kind === 's3' ? ['created', 'file_uploaded'] : ['file_uploaded'];
    if (batch.status === 'created' && !startable.includes('created')) {
      throw new BatchException(
        BatchErrorCode.FileNotUploaded,
        'upload the xlsx file to file_upload_link before starting the batch',
      );
    }
    if (!startable.includes(batch.status))
      throw new BatchException(
        BatchErrorCode.BatchNotStartable,
        `the batch is ${batch.status}: only a batch with its file uploaded can start`,
      );
    const now = this.clock.now();
    await this.dataSource.transaction(async (m) => {
      const rows = await this.store.start(m, batch.id, caller.tenantId, now, startable);
      if (!updatedRows(rows))
        throw new BatchException(BatchErrorCode.BatchNotStartable, 'the batch was started or stopped meanwhile');
      await this.jobs.enqueue(
        m,
        BATCH_LOAD_QUEUE,
        { batch_id: batch.id },
        { tenantId: caller.tenantId, dedupeKey: `batch-load:${batch.id}`, maxAttempts: 5 },
      );
    });
    return { ...batch, status: 'processing', startedAt: now, updatedAt: now };
  }

  /** Stops the batch: rows not yet created never are (they become `stopped`). */
  async stop(caller: Caller, batchId: string): Promise<BatchEntity> {
    const batch = await this.get(caller, batchId);
    if (['stopped', 'completed', 'failed'].includes(batch.status))
      throw new BatchException(BatchErrorCode.BatchFinished, `the batch is already ${batch.status}`);
    const now = this.clock.now();
    await this.dataSource.transaction(async (m) => {
      const rows = await this.store.stop(m, batch.id, caller.tenantId, now);
      if (!updatedRows(rows)) throw new BatchException(BatchErrorCode.BatchFinished, 'the batch finished meanwhile');
      await this.store.stopPendingRows(m, batch.id, now);
    });
    return { ...batch, status: 'stopped', finishedAt: now, updatedAt: now };
  }

  /**
   * Counts of the batch's rows and of their checks' statuses. Each row's check status is a scalar
   * subquery on the checks primary key (a SubPlan the planner cannot turn into a join): on tables
   * that grew faster than their statistics (a new deployment's first big batch) a join let the
   * planner scan every check of the tenant per row, and one poll ran for over a minute.
   */
  async progress(batch: BatchEntity): Promise<BatchProgress> {
    const row = await this.store.progress(this.dataSource.manager, batch.id, batch.tenantId);
    return {
      rows_total: batch.rowsTotal,
      rows_pending:
        batch.status === 'file_uploaded' ||
        (batch.status === 'processing' && row.created + row.failed + row.pending === 0)
          ? batch.rowsTotal
          : row.pending,
      rows_created: row.created,
      rows_failed: row.failed,
      rows_stopped: row.stopped,
      checks_completed: row.completed,
      checks_error: row.error,
      checks_in_progress: row.created - row.completed - row.error,
    };
  }

  /** Queues the report (xlsx or csv); a new request replaces the previous report. */
  async requestReport(caller: Caller, batchId: string, format: ReportFormat): Promise<BatchEntity> {
    const batch = await this.get(caller, batchId);
    const now = this.clock.now();
    const requestId = randomUUID();
    await this.dataSource.transaction(async (m) => {
      await this.store.requestReport(m, batch.id, caller.tenantId, format, now);
      await this.jobs.enqueue(
        m,
        BATCH_REPORT_QUEUE,
        { batch_id: batch.id, request_id: requestId },
        { tenantId: caller.tenantId, dedupeKey: `batch-report:${batch.id}:${requestId}`, maxAttempts: 5 },
      );
    });
    return {
      ...batch,
      reportFormat: format,
      reportStatus: 'generating',
      reportRequestedAt: now,
      reportGeneratedAt: null,
    };
  }

  /** The report: null while it is being generated; 404 when none was requested. */
  async report(caller: Caller, batchId: string): Promise<{ batch: BatchEntity; content: Buffer | null }> {
    const batch = await this.get(caller, batchId);
    if (!batch.reportStatus)
      throw new BatchException(
        BatchErrorCode.ReportNotRequested,
        'no report was requested: POST /v1/batches/{batch_id}/report with format first',
      );
    if (batch.reportStatus !== 'ready') return { batch, content: null };
    return { batch, content: await this.store.reportContent(this.dataSource.manager, batch.id, caller.tenantId) };
  }
}
