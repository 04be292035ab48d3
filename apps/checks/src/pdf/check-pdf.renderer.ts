import type { DatabaseStatusEntry, DatasetScore } from '@kyc/contracts';
import PDFDocument from 'pdfkit';

import { pdfInput, PdfLanguage, pdfText, pdfValue } from './pdf-labels';

/** What a check PDF shows (taken from the check row; no database access here). */
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
}

const fmt = (n: number) => (n < 0 ? '-1' : n.toFixed(2));

/**
 * Renders the PDF of a check in one language (pdfkit, built-in Helvetica: Latin-1 covers es/en/pt):
 * the inputs searched, the three scores, each consulted dataset with its result, score and
 * severity, and each database with its status. Pure and synchronous apart from collecting the bytes.
 */
export function renderCheckPdf(content: CheckPdfContent, lang: PdfLanguage, generatedAt: Date): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: true,
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
  const line = (label: string, value: string) =>
    doc.font('Helvetica-Bold').text(`${label}: `, { continued: true }).font('Helvetica').text(value);
  const heading = (text: string) =>
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).text(text).fontSize(10).moveDown(0.3);

  doc.font('Helvetica-Bold').fontSize(18).text(t('title')).fontSize(10).moveDown(0.5);
  line(t('check_id'), content.checkId);
  line(t('country'), content.country);
  line(t('type'), v(content.type));
  line(t('status'), v(content.status));
  line(t('creation_date'), content.createdAt.toISOString());
  line(t('generated_at'), generatedAt.toISOString());

  heading(t('inputs'));
  const inputs = Object.entries(content.inputs);
  if (!inputs.length) doc.font('Helvetica').text(t('none'));
  for (const [key, value] of inputs) line(pdfInput(key, lang), value);

  heading(t('scores'));
  line(t('score'), fmt(content.score));
  line(t('id_score'), fmt(content.idScore));
  line(t('homonym_score'), fmt(content.homonymScore));
  doc.font('Helvetica-Oblique').fontSize(8).text(t('score_scale')).fontSize(10);

  heading(t('datasets'));
  if (!content.scores.length) doc.font('Helvetica').text(t('none'));
  for (const s of content.scores) {
    doc.font('Helvetica-Bold').text(v(s.data_set));
    doc
      .font('Helvetica')
      .text(`${t('result')}: ${v(s.result)}   ${t('score')}: ${fmt(s.score)}   ${t('severity')}: ${v(s.severity)}`, {
        indent: 12,
      });
  }

  heading(t('databases'));
  if (!content.statuses.length) doc.font('Helvetica').text(t('none'));
  for (const s of content.statuses) {
    const found = content.recordsFound[s.database_id] ?? 0;
    doc
      .font('Helvetica')
      .text(
        `${s.database_name} (${s.data_set ? v(s.data_set) : s.database_id}): ${v(s.status)}; ${t('records')}: ${found}`,
      );
  }
  doc.end();
  return done;
}
