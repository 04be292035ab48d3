import { rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import * as SQL from './batch.sql';

/** A row of the batch report: the spreadsheet row's state and its check's status and scores. */
export interface BatchReportRow {
  row_number: number;
  status: string;
  check_id: string | null;
  errors: { field: string; message: string }[] | null;
  check_status: string | null;
  score: number | null;
  id_score: number | null;
  homonym_score: number | null;
}

export type BatchProgressRow = Record<'pending' | 'created' | 'failed' | 'stopped' | 'completed' | 'error', number>;

/**
 * The raw statements of a batch (batches, batch_rows, batch_files), its SQL in batch.sql.ts. Each
 * method runs on the manager it is given: the caller's transaction, or the data source's manager
 * outside one. An UPDATE … RETURNING gives the driver's raw result (read it with returnedRows /
 * updatedRows).
 */
@Injectable()
export class BatchStore {
  private run<T = unknown>(m: EntityManager, sql: string, values: unknown[]): Promise<T[]> {
    return rawQuery<T>(m.connection, sql, values, m);
  }

  async customTypeExists(m: EntityManager, tenantId: string, country: unknown, type: string): Promise<boolean> {
    const [row] = await this.run<{ ok: number }>(m, SQL.CUSTOM_TYPE_EXISTS, [tenantId, country, type]);
    return !!row;
  }

  markFileUploaded(m: EntityManager, id: string, now: Date, size: number, rows: number): Promise<unknown[]> {
    return this.run(m, SQL.MARK_FILE_UPLOADED, [id, now, size, rows]);
  }

  takeUploadAttempt(m: EntityManager, id: string, now: Date, max: number): Promise<unknown[]> {
    return this.run(m, SQL.TAKE_UPLOAD_ATTEMPT, [id, now, max]);
  }

  async status(m: EntityManager, id: string): Promise<{ status: string } | undefined> {
    const [row] = await this.run<{ status: string }>(m, SQL.BATCH_STATUS, [id]);
    return row;
  }

  start(m: EntityManager, id: string, tenantId: string, now: Date, startable: string[]): Promise<unknown[]> {
    return this.run(m, SQL.START, [id, tenantId, now, startable]);
  }

  stop(m: EntityManager, id: string, tenantId: string, now: Date): Promise<unknown[]> {
    return this.run(m, SQL.STOP, [id, tenantId, now]);
  }

  async stopPendingRows(m: EntityManager, id: string, now: Date): Promise<void> {
    await this.run(m, SQL.STOP_PENDING_ROWS, [id, now]);
  }

  async progress(m: EntityManager, id: string, tenantId: string): Promise<BatchProgressRow> {
    const [row] = await this.run<BatchProgressRow>(m, SQL.PROGRESS, [id, tenantId]);
    return row;
  }

  async requestReport(m: EntityManager, id: string, tenantId: string, format: string, now: Date): Promise<void> {
    await this.run(m, SQL.REQUEST_REPORT, [id, tenantId, format, now]);
  }

  async reportContent(m: EntityManager, id: string, tenantId: string): Promise<Buffer | null> {
    const [row] = await this.run<{ report: Buffer | null }>(m, SQL.REPORT_CONTENT, [id, tenantId]);
    return row?.report ?? null;
  }

  async fail(m: EntityManager, id: string, error: string, now: Date): Promise<void> {
    await this.run(m, SQL.FAIL, [id, error, now]);
  }

  async insertRows(
    m: EntityManager,
    id: string,
    tenantId: string,
    rowNumbers: number[],
    inputs: string[],
    now: Date,
  ): Promise<void> {
    await this.run(m, SQL.INSERT_ROWS, [id, tenantId, rowNumbers, inputs, now]);
  }

  async setRowsTotal(m: EntityManager, id: string, total: number, now: Date): Promise<void> {
    await this.run(m, SQL.SET_ROWS_TOTAL, [id, total, now]);
  }

  async completeEmpty(m: EntityManager, id: string, now: Date): Promise<void> {
    await this.run(m, SQL.COMPLETE_EMPTY, [id, now]);
  }

  pendingRows(m: EntityManager, id: string, from: number, to: number): Promise<{ row_number: number }[]> {
    return this.run<{ row_number: number }>(m, SQL.PENDING_ROWS, [id, from, to]);
  }

  async failPendingRow(m: EntityManager, id: string, rowNumber: number, errors: string, now: Date): Promise<void> {
    await this.run(m, SQL.FAIL_PENDING_ROW, [id, rowNumber, errors, now]);
  }

  async completeIfDone(m: EntityManager, id: string, now: Date): Promise<void> {
    await this.run(m, SQL.COMPLETE_IF_DONE, [id, now]);
  }

  claimChunk(m: EntityManager, id: string, from: number, to: number, now: Date): Promise<unknown[]> {
    return this.run(m, SQL.CLAIM_CHUNK, [id, from, to, now]);
  }

  async setCheckIds(m: EntityManager, id: string, rowNumbers: number[], checkIds: string[]): Promise<void> {
    await this.run(m, SQL.SET_CHECK_IDS, [id, rowNumbers, checkIds]);
  }

  async failRows(m: EntityManager, id: string, rowNumbers: number[], errors: string[]): Promise<void> {
    await this.run(m, SQL.FAIL_ROWS, [id, rowNumbers, errors]);
  }

  claimRow(m: EntityManager, id: string, rowNumber: number, now: Date): Promise<unknown[]> {
    return this.run(m, SQL.CLAIM_ROW, [id, rowNumber, now]);
  }

  async setCheckId(m: EntityManager, id: string, rowNumber: number, checkId: string): Promise<void> {
    await this.run(m, SQL.SET_CHECK_ID, [id, rowNumber, checkId]);
  }

  async saveReport(m: EntityManager, id: string, content: Buffer, now: Date, format: string): Promise<void> {
    await this.run(m, SQL.SAVE_REPORT, [id, content, now, format]);
  }

  reportRows(m: EntityManager, id: string, tenantId: string): Promise<BatchReportRow[]> {
    return this.run<BatchReportRow>(m, SQL.REPORT_ROWS, [id, tenantId]);
  }

  async saveFile(m: EntityManager, id: string, tenantId: string, content: Buffer, now: Date): Promise<void> {
    await this.run(m, SQL.SAVE_FILE, [id, tenantId, content, now]);
  }

  async readFile(m: EntityManager, id: string, tenantId: string): Promise<Buffer | null> {
    const rows = await this.run<{ content: Buffer }>(m, SQL.READ_FILE, [id, tenantId]);
    return rows[0]?.content ?? null;
  }
}
