import type { DatabaseStatusEntry, DatasetScore } from '@kyc/contracts';
import PDFDocument from 'pdfkit';

import { label, valueLabel } from '../checks/detail-labels';
import type { FoundRecord } from '../collectors/collector';
import { pdfInput, PdfLanguage, pdfText, pdfValue } from './pdf-labels';

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
/** `2031-03-10 12:00:00 UTC`: the time zone is always written out. */
export const pdfTimestamp = (d: Date) => `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

const MARGIN = 50;
const HEADER_Y = 22;
const CONTENT_TOP = 62;
const FOOTER_SPACE = 40;
const GRID = '#9e9e9e';
const HEAD_FILL = '#e0e0e0';

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
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: CONTENT_TOP, bottom: MARGIN + FOOTER_SPACE / 2, left: MARGIN, right: MARGIN },
    compress: true,
    bufferPages: true,
    info: { Title: `${pdfText('title', lang)} ${content.checkId}`, CreationDate: generatedAt },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const t = (k: string) => pdfText(k, lang);
  const v = (k: string) => pdfValue(k, lang);
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const ensure = (height: number) => {
    if (doc.y + height > bottom()) doc.addPage();
  };
  const heading = (text: string) => {
    ensure(60);
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).fillColor('#000000').text(text, MARGIN).fontSize(9);
    doc.moveDown(0.3);
  };

  /** A grid table; the header row is repeated on a new page and never left alone at a page end. */
  const table = (columns: { title: string; width: number }[], rows: string[][]) => {
    const pad = 4;
    doc.fontSize(9);
    const rowHeight = (cells: string[], font: string) => {
      doc.font(font);
      return (
        Math.max(...cells.map((c, i) => doc.heightOfString(c || ' ', { width: columns[i].width - 2 * pad }))) + 2 * pad
      );
    };
    const drawRow = (cells: string[], font: string, fill: string | null) => {
      const h = rowHeight(cells, font);
      let x = MARGIN;
      const y = doc.y;
      cells.forEach((c, i) => {
        const w = columns[i].width;
        if (fill) doc.rect(x, y, w, h).fillColor(fill).fill();
        doc.rect(x, y, w, h).lineWidth(0.5).strokeColor(GRID).stroke();
        doc
          .fillColor('#000000')
          .font(font)
          .text(c, x + pad, y + pad, { width: w - 2 * pad, lineBreak: true });
        x += w;
      });
      doc.x = MARGIN;
      doc.y = y + h;
    };
    const header = columns.map((c) => c.title);
    const headerHeight = rowHeight(header, 'Helvetica-Bold');
    ensure(headerHeight + (rows.length ? rowHeight(rows[0], 'Helvetica') : 0));
    drawRow(header, 'Helvetica-Bold', HEAD_FILL);
    for (const row of rows) {
      const h = rowHeight(row, 'Helvetica');
      if (doc.y + h > bottom()) {
        doc.addPage();
        drawRow(header, 'Helvetica-Bold', HEAD_FILL);
      }
      drawRow(row, 'Helvetica', null);
    }
    doc.moveDown(0.5);
  };
  const cols = (...fractions: [string, number][]) =>
    fractions.map(([title, f]) => ({ title, width: Math.floor(width * f) }));

  // ---- title and check
  doc.font('Helvetica-Bold').fontSize(18).fillColor('#000000').text(t('title'), MARGIN, CONTENT_TOP);
  doc.fontSize(9).moveDown(0.4);
  table(
    cols(
      [t('check_id'), 0.34],
      [t('country'), 0.12],
      [t('type'), 0.14],
      [t('status'), 0.16],
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
      while (chunk.length < per) chunk.push(['', '']);
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

  // ---- header and footer of every page
  const range = doc.bufferedPageRange();
  for (let p = range.start; p < range.start + range.count; p++) {
    doc.switchToPage(p);
    const saved = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const right = doc.page.width - MARGIN;
    doc.font('Helvetica').fontSize(8).fillColor('#424242');
    doc.text(`${t('title')} · ${t('check_id')}: ${content.checkId}`, MARGIN, HEADER_Y, { width, lineBreak: false });
    doc
      .moveTo(MARGIN, HEADER_Y + 14)
      .lineTo(right, HEADER_Y + 14)
      .lineWidth(0.5)
      .strokeColor(GRID)
      .stroke();
    const fy = doc.page.height - MARGIN + 8;
    doc
      .moveTo(MARGIN, fy - 6)
      .lineTo(right, fy - 6)
      .lineWidth(0.5)
      .strokeColor(GRID)
      .stroke();
    doc.text(`${t('generated_at')}: ${pdfTimestamp(generatedAt)}`, MARGIN, fy, { width: width / 2, lineBreak: false });
    doc.text(
      t('page_of')
        .replace('{x}', String(p - range.start + 1))
        .replace('{y}', String(range.count)),
      MARGIN + width / 2,
      fy,
      { width: width / 2, align: 'right', lineBreak: false },
    );
    doc.page.margins.bottom = saved;
  }
  doc.end();
  return done;
}
