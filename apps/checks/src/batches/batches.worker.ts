import { countryPermission } from '@kyc/contracts';
import { AppException, Caller, Clock, Job, JobQueueService } from '@kyc/platform';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { ChecksService } from '../checks/checks.service';
import { ChecksConfig } from '../config/checks.config';
import { ContinuousChecksService } from '../continuous-checks/continuous-checks.service';
import { BatchEntity } from './batch.entity';
import { BatchStore } from './batch.store';
import { batchReport } from './batch-report';
import { BATCH_LOAD_QUEUE, BATCH_REPORT_QUEUE, BATCH_ROWS_QUEUE, returnedRows } from './batches.service';
import { BatchSpreadsheetReader } from './spreadsheet/batch-spreadsheet-reader';
import { SpreadsheetError } from './spreadsheet/spreadsheet-limits';
import { BatchFileStorage } from './storage/batch-file-storage';

interface LoadJob {
  batch_id: string;
}
interface RowsJob {
  batch_id: string;
  /** First and last spreadsheet row number of the chunk (inclusive). */
  from: number;
  to: number;
}
interface ReportJob {
  batch_id: string;
  request_id: string;
}

const INSERT_CHUNK = 1_000;

/** What a refused row records: the exception's field errors, else its message. */
const rowErrors = (err: AppException) => (err.fields.length ? err.fields : [{ field: 'row', message: err.message }]);

/**
 * The durable jobs of batches (JobQueueService):
 * - load: reads the uploaded file into batch_rows (unique per batch and row number) and queues one
 *   rows job per CHECKS_BATCH_ROWS_PER_JOB rows, in one transaction;
 * - rows: creates the checks of the pending rows of its chunk in one transaction that claims the
 *   rows (pending -> created), creates their checks with multi-row statements
 *   (ChecksService.createMany) and records their ids, so a worker killed mid-chunk and restarted
 *   (the job's lock expires) creates no row twice. A row the rules refuse is recorded as failed
 *   with its field errors; the batch goes on. A batch with frequency and end_date takes a
 *   transaction per row, which also creates the row's continuous check (a refused continuous
 *   check rolls its row back);
 * - report: writes the xlsx, csv or pdf report onto the batch.
 */
@Injectable()
export class BatchesWorker implements OnModuleInit {
  private readonly logger = new Logger('batches');

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: BatchStore,
    private readonly jobs: JobQueueService,
    private readonly checks: ChecksService,
    private readonly continuous: ContinuousChecksService,
    private readonly storage: BatchFileStorage,
    private readonly spreadsheets: BatchSpreadsheetReader,
    private readonly config: ChecksConfig,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    if (!this.config.CHECKS_WORKER_ENABLED) return;
    const lockMs = this.config.CHECKS_WORKER_LOCK_MS;
    this.jobs.register<LoadJob>(BATCH_LOAD_QUEUE, (job, m) => this.load(job, m), {
      transactional: true,
      concurrency: 1,
      lockMs: Math.max(lockMs, 60_000),
    });
    this.jobs.register<RowsJob>(BATCH_ROWS_QUEUE, (job) => this.rows(job), {
      concurrency: this.config.CHECKS_BATCH_CONCURRENCY,
      lockMs,
    });
    this.jobs.register<ReportJob>(BATCH_REPORT_QUEUE, (job, m) => this.report(job, m), {
      transactional: true,
      concurrency: 1,
      lockMs: Math.max(lockMs, 60_000),
    });
  }

  private async batch(m: EntityManager, id: string, lock = false): Promise<BatchEntity | null> {
    return m
      .getRepository(BatchEntity)
      .findOne({ where: { id }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  async load(job: Job<LoadJob>, m: EntityManager): Promise<void> {
    const batch = await this.batch(m, job.payload.batch_id, true);
    if (!batch || batch.status !== 'processing') return;
    const now = this.clock.now();
    const fail = (error: string) => this.store.fail(m, batch.id, error, now);
    const content = await this.storage.read(m, batch, now);
    if (!content) return void (await fail('no file was uploaded to file_upload_link'));
    // S3 storage: a presigned PUT cannot bound the size, so it is checked here.
    if (content.length > this.config.CHECKS_BATCH_MAX_FILE_BYTES)
      return void (await fail(`the file is larger than ${this.config.CHECKS_BATCH_MAX_FILE_BYTES} bytes`));
    let rows;
    try {
      rows = await this.spreadsheets.read(content, batch.columns);
    } catch (err) {
      if (err instanceof SpreadsheetError) return void (await fail(err.message));
      throw err;
    }
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const part = rows.slice(i, i + INSERT_CHUNK);
      await this.store.insertRows(
        m,
        batch.id,
        batch.tenantId,
        part.map((r) => r.rowNumber),
        part.map((r) => JSON.stringify(r.inputs)),
        now,
      );
    }
    await this.store.setRowsTotal(m, batch.id, rows.length, now);
    const size = this.config.CHECKS_BATCH_ROWS_PER_JOB;
    for (let i = 0; i < rows.length; i += size) {
      const from = rows[i].rowNumber;
      const to = rows[Math.min(i + size, rows.length) - 1].rowNumber;
      await this.jobs.enqueue<RowsJob>(
        m,
        BATCH_ROWS_QUEUE,
        { batch_id: batch.id, from, to },
        { tenantId: batch.tenantId, dedupeKey: `batch-rows:${batch.id}:${from}`, maxAttempts: 20 },
      );
    }
    if (!rows.length) await this.store.completeEmpty(m, batch.id, now);
  }

  async rows(job: Job<RowsJob>): Promise<void> {
    const { batch_id, from, to } = job.payload;
    const batch = await this.batch(this.dataSource.manager, batch_id);
    if (!batch || batch.status !== 'processing') return;
    const perm = countryPermission(batch.country);
    // The batch's creator, as the check's creator, with the country permission verified at creation.
    const caller = new Caller(
      batch.tenantId,
      batch.createdBy,
      undefined,
      `batch:${batch.id}`,
      'backend',
      batch.keyVersion === 1 ? 1 : 0,
      undefined,
      new Set([perm ?? 'checks.country_all']),
      [],
    );
    if (batch.frequency && batch.endDate) {
      // Continuous batch: a row per transaction, each check with its continuous check.
      const pending = await this.store.pendingRows(this.dataSource.manager, batch_id, from, to);
      for (const { row_number } of pending) {
        let go: boolean;
        try {
          go = await this.dataSource.transaction((m) => this.createRow(m, batch, caller, row_number));
        } catch (err) {
          // Refused by the check (or continuous check) rules: the row's transaction rolled back; record why.
          if (!(err instanceof AppException) || err.status >= 500) throw err;
          await this.store.failPendingRow(
            this.dataSource.manager,
            batch.id,
            row_number,
            JSON.stringify(rowErrors(err)),
            this.clock.now(),
          );
          go = true;
        }
        if (!go) return; // stopped
      }
    } else if (!(await this.dataSource.transaction((m) => this.createChunk(m, batch, caller, from, to)))) return; // stopped
    await this.store.completeIfDone(this.dataSource.manager, batch_id, this.clock.now());
  }

  /**
   * The pending rows of a chunk, in one transaction: claims them (pending -> created), creates
   * their checks at once (ChecksService.createMany: the rules of a single create, multi-row
   * statements), records each check id, and marks the rows the rules refuse `failed` with their
   * field errors. False when the batch is no longer processing.
   */
  private async createChunk(
    m: EntityManager,
    batch: BatchEntity,
    caller: Caller,
    from: number,
    to: number,
  ): Promise<boolean> {
    const now = this.clock.now();
    const claimed = await this.store
      .claimChunk(m, batch.id, from, to, now)
      .then((r) => returnedRows<{ row_number: number; inputs: Record<string, string> }>(r));
    if (!claimed.length) {
      return (await this.store.status(m, batch.id))?.status === 'processing';
    }
    claimed.sort((a, b) => a.row_number - b.row_number);
    const results = await this.checks.createMany(
      caller,
      claimed.map((r) => ({ ...r.inputs, country: batch.country, type: batch.type, force_creation: 'true' })),
      m,
    );
    const created = claimed.flatMap((r, i) => (results[i].check ? [{ n: r.row_number, id: results[i].check.id }] : []));
    const failed = claimed.flatMap((r, i) =>
      results[i].error ? [{ n: r.row_number, errors: JSON.stringify(rowErrors(results[i].error)) }] : [],
    );
    if (created.length) {
      await this.store.setCheckIds(
        m,
        batch.id,
        created.map((c) => c.n),
        created.map((c) => c.id),
      );
    }
    if (failed.length) {
      await this.store.failRows(
        m,
        batch.id,
        failed.map((f) => f.n),
        failed.map((f) => f.errors),
      );
    }
    return true;
  }

  /** One row, in its own transaction: false when the batch is no longer processing. */
  private async createRow(m: EntityManager, batch: BatchEntity, caller: Caller, rowNumber: number): Promise<boolean> {
    const now = this.clock.now();
    const claimed = await this.store
      .claimRow(m, batch.id, rowNumber, now)
      .then((r) => returnedRows<{ inputs: Record<string, string> }>(r));
    if (!claimed.length) {
      return (await this.store.status(m, batch.id))?.status === 'processing';
    }
    const body: Record<string, unknown> = {
      ...claimed[0].inputs,
      country: batch.country,
      type: batch.type,
      force_creation: 'true',
    };
    const { check } = await this.checks.create(caller, body, { manager: m });
    // Continuous batch: each check repeats at the batch's frequency until its end_date, committed with it.
    if (batch.frequency && batch.endDate)
      await this.continuous.createInTransaction(m, caller, check, {
        frequency: batch.frequency,
        end_date: String(batch.endDate).slice(0, 10),
      });
    await this.store.setCheckId(m, batch.id, rowNumber, check.id);
    return true;
  }

  async report(job: Job<ReportJob>, m: EntityManager): Promise<void> {
    const batch = await this.batch(m, job.payload.batch_id, true);
    if (!batch || batch.reportStatus !== 'generating' || !batch.reportFormat) return;
    const now = this.clock.now();
    const content = await batchReport(this.store, m, batch, batch.reportFormat, now);
    await this.store.saveReport(m, batch.id, content, now, batch.reportFormat);
    this.logger.log({ msg: 'batch report generated', batch_id: batch.id, bytes: content.length });
  }
}
