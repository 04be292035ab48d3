import { writeDelimited } from '@kyc/platform';
import { EntityManager } from 'typeorm';

import { renderBatchPdf } from '../pdf/batch-pdf.renderer';
import { DEFAULT_PDF_LANGUAGE } from '../pdf/pdf-labels';
import { BatchEntity, ReportFormat } from './batch.entity';
import { BatchStore } from './batch.store';
import { writeXlsx } from './batch-spreadsheet';

export const REPORT_COLUMNS = [
  'row_number',
  'status',
  'check_id',
  'check_status',
  'score',
  'id_score',
  'homonym_score',
  'error_fields',
  'error_messages',
];

/**
 * The batch report (xlsx, csv or pdf: the same columns in each): one line per spreadsheet row, in
 * row order: the row's state (created, failed,
 * pending, stopped), its check id, the check's status and scores (-1 until it finishes), and the
 * row's errors (fields and messages joined with "; "). A row's check is joined on its id alone (the
 * row's check was created for the batch's tenant): a tenant condition in the join let the planner,
 * on statistics that lag a first big batch, scan every check of the tenant per row.
 */
export async function batchReport(
  store: BatchStore,
  m: EntityManager,
  batch: BatchEntity,
  format: ReportFormat,
  generatedAt: Date,
): Promise<Buffer> {
  const rows = await store.reportRows(m, batch.id, batch.tenantId);
  const lines = rows.map((r) => [
    r.row_number,
    r.status,
    r.check_id,
    r.check_status,
    r.score,
    r.id_score,
    r.homonym_score,
    r.errors?.map((e) => e.field).join('; ') ?? null,
    r.errors?.map((e) => e.message).join('; ') ?? null,
  ]);
  if (format === 'pdf')
    return renderBatchPdf(
      {
        batchId: batch.id,
        country: batch.country,
        type: batch.type,
        status: batch.status,
        createdAt: batch.createdAt,
        columns: REPORT_COLUMNS,
        lines,
      },
      DEFAULT_PDF_LANGUAGE,
      generatedAt,
    );
  // CSV through the platform's delimited writer (RFC 4180, formulas neutralized), as every export.
  return format === 'csv' ? writeDelimited('csv', REPORT_COLUMNS, lines) : writeXlsx(REPORT_COLUMNS, lines);
}
