import { execFileSync } from 'node:child_process';

import { DATA_SETS, DataSet } from '@kyc/contracts';

import { valueLabel } from '../checks/detail-labels';
import { sandboxFinding } from '../collectors/sandbox/sandbox-records';
import { CheckPdfContent, PdfRecord, renderCheckPdf } from './check-pdf.renderer';
import { PDF_INPUTS, PDF_TEXT, PDF_VALUES } from './pdf-labels';

const generatedAt = new Date('2031-03-10T12:34:56Z');

/** A finished check with sandbox findings in every dataset (`perDataSet` records each). */
function checkWithFindings(perDataSet = 1): CheckPdfContent {
  const records: PdfRecord[] = [];
  for (const ds of DATA_SETS) {
    for (let i = 0; i < perDataSet; i++) {
      const by = ds === 'legal_background' || ds === 'alert_in_media' ? 'name' : 'id';
      const rec = sandboxFinding(ds, 'medium', `1000000042:${i}`, { name: 'Laura Sandbox Ortiz', plate: 'KLM123' });
      records.push({
        data_set: ds,
        found_by: by,
        severity: 'medium',
        kind: rec.kind,
        fields: rec.fields,
        database_name: `Sandbox ${ds} DB`,
      });
    }
  }
  return {
    checkId: 'CHK0123456789abcdef0123456789abcdef',
    country: 'CO',
    type: 'person',
    status: 'completed',
    createdAt: new Date('2031-03-10T12:00:00Z'),
    inputs: { national_id: '1000000042', first_name: 'Laura', last_name: 'Sandbox Ortiz' },
    score: 0.37,
    idScore: 0.42,
    homonymScore: 0.81,
    scores: DATA_SETS.map((ds: DataSet) => {
      const detail = { result: 'found' as const, score: 0.5, severity: 'medium' as const };
      return { data_set: ds, ...detail, by_id: detail, by_name: detail };
    }),
    statuses: DATA_SETS.map((ds) => ({
      database_id: `sandbox-co-${ds}`,
      database_name: `Sandbox ${ds} DB`,
      data_set: ds,
      status: 'completed' as const,
    })),
    recordsFound: Object.fromEntries(DATA_SETS.map((ds) => [`sandbox-co-${ds}`, perDataSet])),
    records,
  };
}

const pdfToText = (pdf: Buffer) =>
  execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8');
const squash = (s: string) => s.replace(/\s+/g, ' ');

describe('check PDF renderer', () => {
  it('renders a PDF document in each language', async () => {
    for (const lang of ['es', 'en', 'pt'] as const) {
      const pdf = await renderCheckPdf(checkWithFindings(), lang, generatedAt);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  it('holds every record value, the three scores and a footer on every page (pdftotext)', async () => {
    const content = checkWithFindings();
    for (const lang of ['es', 'en', 'pt'] as const) {
      const text = squash(pdfToText(await renderCheckPdf(content, lang, generatedAt)));
      for (const rec of content.records!)
        for (const f of rec.fields) {
          const shown = f.valueKey ? valueLabel(f.value, lang) : f.value;
          expect([rec.kind, f.key, text.includes(squash(shown))]).toEqual([rec.kind, f.key, true]);
        }
      for (const score of ['0.37', '0.42', '0.81']) expect(text).toContain(score);
      expect(text).toContain(content.checkId);
      expect(text).toContain('2031-03-10 12:34:56 UTC');
      const pages = Number(/(?:Página|Page) 1 (?:de|of) (\d+)/.exec(text)?.[1]);
      expect(pages).toBeGreaterThan(1);
      for (let p = 1; p <= pages; p++) expect(text).toMatch(new RegExp(`(Página|Page) ${p} (de|of) ${pages}`));
      expect(text).toContain(squash(PDF_TEXT.homonym_warning[lang]));
      expect(text).toContain(squash(PDF_TEXT.legal_title[lang]));
    }
  });

  it('never leaves a table header alone at the bottom of a page', async () => {
    const pdf = await renderCheckPdf(checkWithFindings(3), 'es', generatedAt);
    const pages = pdfToText(pdf)
      .split('\f')
      .filter((p) => p.trim());
    for (const page of pages) {
      const lines = page.trim().split('\n');
      // The footer comes last; the line before it must not be a record's column header (a label line).
      const body = lines.filter((l) => !/Página \d+ de \d+|Generado el/.test(l));
      expect(body[body.length - 1]).not.toMatch(
        /^(Número de proceso|Número de radicado|Lista|Número de comparendo|Placa)$/,
      );
    }
  });

  it('draws a page 1 that is not blank (pdftoppm)', async () => {
    const pdf = await renderCheckPdf(checkWithFindings(), 'es', generatedAt);
    const png = execFileSync('pdftoppm', ['-png', '-r', '40', '-f', '1', '-l', '1', '-'], { input: pdf });
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const pgm = execFileSync('pdftoppm', ['-gray', '-r', '40', '-f', '1', '-l', '1', '-'], { input: pdf });
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))!;
    const pixels = pgm.subarray(header[0].length);
    expect(pixels.length).toBe(Number(header[1]) * Number(header[2]));
    const dark = pixels.filter((p) => p < 128).length;
    expect(dark / pixels.length).toBeGreaterThan(0.02);
  });

  it('renders a 100-finding check in under 2 s', async () => {
    const content = checkWithFindings(8); // 14 datasets x 8 = 112 records
    const t = performance.now();
    await renderCheckPdf(content, 'es', generatedAt);
    expect(performance.now() - t).toBeLessThan(2000);
  });

  it('has every label in the three languages', () => {
    for (const labels of [PDF_TEXT, PDF_VALUES, PDF_INPUTS]) {
      for (const [key, byLang] of Object.entries(labels)) {
        expect([key, Object.keys(byLang).sort()]).toEqual([key, ['en', 'es', 'pt']]);
        for (const text of Object.values(byLang)) expect(text.length).toBeGreaterThan(0);
      }
    }
  });
});
