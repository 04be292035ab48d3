import type { DatabaseStatusEntry, DatasetScore } from '@kyc/contracts';

import { label, valueLabel } from '../checks/detail-labels';
import type { FoundRecord } from '../collectors/collector';
import { pdfInput, PdfLanguage, pdfText, pdfValue } from './pdf-labels';
import { MARGIN, PdfColumn, PdfReport, pdfTimestamp } from './pdf-layout';

/** One record a database found, with the database that found it. */
export type PdfRecord = Pick<FoundRecord, 'data_set' | 'found_by' | 'severity' | 'kind' | 'fields'> & {
  database_name: string;
};

/** What a check PDF shows (taken from the check row and its databases; no database access here). */
export interface CheckPdfContent {
  checkId: string;
  country: string;
  type: string;
  status: string;
  createdAt: Date;
  inputs: Record<string, string>;
  score: number;
  idScore: number;
  homonymScore: number;
  scores: DatasetScore[];
  statuses: DatabaseStatusEntry[];
  /** Records found per database id. */
  recordsFound: Record<string, number>;
  /** Every record found (the tables of GET /v1/checks/{id}/details), in database order. */
  records?: PdfRecord[];
}

const fmt = (n: number) => (n < 0 ? '-1' : n.toFixed(2));

/**
 * Score bands, low score = high risk. Fills differ in lightness (not only hue) and every band is
 * labelled, so the scale reads the same printed in grey.
 */
const BANDS = [
  { from: 0, to: 0.4, fill: '#8e1b1b', text: '#ffffff', label: 'band_high' },
  { from: 0.4, to: 0.7, fill: '#f0b429', text: '#000000', label: 'band_medium' },
  { from: 0.7, to: 1, fill: '#c8e6c9', text: '#000000', label: 'band_low' },
] as const;

const bandOf = (score: number) => BANDS.find((b) => score < b.to) ?? BANDS[BANDS.length - 1];

/**
 * Renders the PDF report of a check in one language (pdfkit, built-in Helvetica: Latin-1 covers
 * es/en/pt): the inputs searched, the three scores on a banded scale, one row per dataset, every
 * found record's table (found by ID or by name, severity, homonym warning for by-name records), the
 * databases consulted with status and record counts, and a legal note. Every page carries a header
 * (check id) and a footer (generated at with its time zone, page x of y). A table's header row
 * never ends a page: it moves to the next page with its first row.
 */
export function renderCheckPdf(content: CheckPdfContent, lang: PdfLanguage, generatedAt: Date): Promise<Buffer> {
  const report = new PdfReport(`${pdfText('title', lang)} ${content.checkId}`, generatedAt);
  const doc = report.doc;
  const t = (k: string) => pdfText(k, lang);
  const v = (k: string) => pdfValue(k, lang);
  const width = report.width;
  const ensure = (height: number) => report.ensure(height);
  const heading = (text: string) => report.heading(text);
  const table = (columns: PdfColumn[], rows: string[][]) => report.table(columns, rows);
  const cols = (...fractions: [string, number][]) => report.columns(...fractions);

  // ---- title and check
  report.title(t('title'));
  table(
    cols(
      [t('check_id'), 0.42],
      [t('country'), 0.08],
      [t('type'), 0.12],
      [t('status'), 0.14],
      [t('creation_date'), 0.24],
    ),
    [[content.checkId, content.country, v(content.type), v(content.status), pdfTimestamp(content.createdAt)]],
  );

  // ---- inputs
  heading(t('inputs'));
  const inputs = Object.entries(content.inputs);
  if (!inputs.length) doc.font('Helvetica').text(t('none'));
  else
    table(
      cols([t('input'), 0.4], [t('value'), 0.6]),
      inputs.map(([key, value]) => [pdfInput(key, lang), value]),
    );

  // ---- scores with their scale
  heading(t('scores'));
  ensure(3 * 34 + 40);
  const scaleX = MARGIN + 150;
  const scaleW = width - 150 - 40;
  for (const [key, value] of [
    ['score', content.score],
    ['id_score', content.idScore],
    ['homonym_score', content.homonymScore],
  ] as const) {
    const y = doc.y;
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor('#000000')
      .text(t(key), MARGIN, y + 4, { width: 145 });
    for (const b of BANDS) {
      const x = scaleX + b.from * scaleW;
      const w = (b.to - b.from) * scaleW;
      doc.rect(x, y, w, 16).fillColor(b.fill).fill();
      doc
        .fillColor(b.text)
        .font('Helvetica')
        .fontSize(7)
        .text(t(b.label), x, y + 5, { width: w, align: 'center' });
    }
    doc.rect(scaleX, y, scaleW, 16).lineWidth(0.5).strokeColor('#000000').stroke();
    if (value >= 0) {
      const mx = scaleX + Math.min(1, value) * scaleW;
      doc
        .moveTo(mx, y + 17)
        .lineTo(mx - 5, y + 25)
        .lineTo(mx + 5, y + 25)
        .closePath()
        .fillColor('#000000')
        .fill();
    }
    const band = value < 0 ? t('no_result') : t(bandOf(value).label);
    doc
      .fillColor('#000000')
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(fmt(value), scaleX + scaleW + 6, y + 3, { width: 40 });
    doc
      .font('Helvetica')
      .fontSize(7)
      .text(band, MARGIN, y + 17, { width: 145 });
    doc.x = MARGIN;
    doc.y = y + 34;
  }
  doc.font('Helvetica-Oblique').fontSize(8).fillColor('#000000').text(t('score_scale'), MARGIN).fontSize(9);

  // ---- datasets
  heading(t('datasets'));
  if (!content.scores.length) doc.font('Helvetica').text(t('none'));
  else
    table(
      cols([t('dataset'), 0.4], [t('result'), 0.2], [t('severity'), 0.2], [t('score_short'), 0.2]),
      content.scores.map((s) => [v(s.data_set), v(s.result), v(s.severity), fmt(s.score)]),
    );

  // ---- records found
  heading(t('records_found'));
  const records = content.records ?? [];
  if (!records.length) doc.font('Helvetica').fontSize(9).text(t('no_records'), MARGIN);
  records.forEach((rec, i) => {
    ensure(90);
    const by = rec.found_by === 'name' ? t('by_name') : t('by_id');
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor('#000000')
      .text(`${i + 1}. ${label(rec.kind, lang)}`, MARGIN);
    doc
      .font('Helvetica')
      .fontSize(8)
      .text(
        `${v(rec.data_set)} · ${rec.database_name} · ${t('found_by')}: ${by} · ${t('severity')}: ${v(rec.severity)}`,
        MARGIN,
      );
    if (rec.found_by === 'name') {
      doc
        .font('Helvetica-Oblique')
        .fontSize(8)
        .text(`! ${t('homonym_warning')}`, MARGIN);
    }
    doc.moveDown(0.2);
    const cells = rec.fields.map((f) => [label(f.key, lang), f.valueKey ? valueLabel(f.value, lang) : f.value]);
    // Up to four columns side by side; longer records continue in further rows of the same grid.
    const per = Math.min(4, Math.max(1, cells.length));
    const colW = Math.floor(width / per);
    for (let start = 0; start < cells.length; start += per) {
      const chunk = cells.slice(start, start + per);
      table(
        chunk.map(([title]) => ({ title, width: colW })),
        [chunk.map(([, value]) => value)],
      );
    }
  });

  // ---- databases
  heading(t('databases'));
  if (!content.statuses.length) doc.font('Helvetica').text(t('none'));
  else
    table(
      cols([t('database'), 0.4], [t('dataset'), 0.3], [t('status'), 0.15], [t('records'), 0.15]),
      content.statuses.map((s) => [
        s.database_name,
        s.data_set ? v(s.data_set) : s.database_id,
        v(s.status),
        String(content.recordsFound[s.database_id] ?? 0),
      ]),
    );

  // ---- legal note
  heading(t('legal_title'));
  doc.font('Helvetica').fontSize(8).fillColor('#000000').text(t('legal_note'), MARGIN, doc.y, { width });

  return report.finish(
    `${t('title')} · ${t('check_id')}: ${content.checkId}`,
    `${t('generated_at')}: ${pdfTimestamp(generatedAt)}`,
    t('page_of'),
  );
}
