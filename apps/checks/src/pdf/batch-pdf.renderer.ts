import { PdfLanguage, pdfText, pdfValue } from './pdf-labels';
import { PdfReport, pdfTimestamp } from './pdf-layout';

/** What the PDF report of a batch shows: the batch, and one line per spreadsheet row (the CSV/XLSX columns). */
export interface BatchPdfContent {
  batchId: string;
  country: string;
  type: string;
  status: string;
  createdAt: Date;
  /** The report's columns, in order (REPORT_COLUMNS). */
  columns: readonly string[];
  /** One line per row, values in `columns` order. */
  lines: (string | number | null)[][];
}

/** Relative widths of the report columns on an A4 page. */
const WIDTHS: Record<string, number> = {
  row_number: 0.05,
  status: 0.09,
  check_id: 0.3,
  check_status: 0.1,
  score: 0.07,
  id_score: 0.07,
  homonym_score: 0.07,
  error_fields: 0.1,
  error_messages: 0.15,
};
const SCORE_COLUMNS = ['score', 'id_score', 'homonym_score'];
const band = (score: number) => (score < 0.4 ? 'band_high' : score < 0.7 ? 'band_medium' : 'band_low');

/**
 * Renders the PDF report of a batch with the check report's layout (header with the batch id,
 * footer with generated at and page x of y, tables whose header never ends a page, legal note): the
 * batch, the count of rows per global-score band, and the same columns as the CSV/XLSX report, one
 * line per spreadsheet row.
 */
export function renderBatchPdf(content: BatchPdfContent, lang: PdfLanguage, generatedAt: Date): Promise<Buffer> {
  const t = (k: string) => pdfText(k, lang);
  const v = (k: string) => pdfValue(k, lang);
  const report = new PdfReport(`${t('batch_title')} ${content.batchId}`, generatedAt);
  report.title(t('batch_title'));
  report.table(
    report.columns(
      [t('batch_id'), 0.42],
      [t('country'), 0.08],
      [t('type'), 0.12],
      [t('status'), 0.14],
      [t('creation_date'), 0.24],
    ),
    [[content.batchId, content.country, v(content.type), v(content.status), pdfTimestamp(content.createdAt)]],
  );

  const scoreAt = content.columns.indexOf('score');
  const scores = content.lines.map((l) => l[scoreAt]).filter((s): s is number => typeof s === 'number' && s >= 0);
  report.heading(t('scores'));
  report.table(report.columns([t('band'), 0.5], [t('rows'), 0.5]), [
    ...(['band_high', 'band_medium', 'band_low'] as const).map((b) => [
      t(b),
      String(scores.filter((s) => band(s) === b).length),
    ]),
    [t('no_result'), String(content.lines.length - scores.length)],
  ]);
  report.paragraph(t('score_scale'), 'Helvetica-Oblique', 8);

  report.heading(t('batch_rows'));
  const columns = content.columns.map((c) => ({
    title: t(`col_${c}`),
    width: Math.floor(report.width * (WIDTHS[c] ?? 0.1)),
  }));
  const cell = (column: string, value: string | number | null) => {
    if (value === null || value === undefined) return '';
    if (typeof value === 'number')
      return SCORE_COLUMNS.includes(column) ? (value < 0 ? '-1' : value.toFixed(2)) : String(value);
    return column === 'status' || column === 'check_status' ? v(value) : value;
  };
  if (!content.lines.length) report.paragraph(t('none'));
  else
    report.table(
      columns,
      content.lines.map((line) => line.map((value, i) => cell(content.columns[i], value))),
      7,
    );

  report.heading(t('legal_title'));
  report.paragraph(t('legal_note'), 'Helvetica', 8);
  return report.finish(
    `${t('batch_title')} · ${t('batch_id')}: ${content.batchId}`,
    `${t('generated_at')}: ${pdfTimestamp(generatedAt)}`,
    t('page_of'),
  );
}
