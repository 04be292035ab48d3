import { execFileSync } from 'node:child_process';

import { REPORT_COLUMNS } from '../batches/batch-report';
import { renderBatchPdf } from './batch-pdf.renderer';

const squash = (s: string) => s.replace(/\s+/g, ' ');

describe('batch PDF renderer', () => {
  it('shows every row with the CSV/XLSX columns, the score bands and a footer on every page', async () => {
    const lines = Array.from({ length: 80 }, (_, i) =>
      i % 10 === 9
        ? [i + 1, 'failed', null, null, null, null, null, 'national_id', 'national_id must be a string']
        : [i + 1, 'created', `CHK${String(i).padStart(32, '0')}`, 'completed', i % 2 ? 0.25 : 1, 0.5, 1, null, null],
    );
    const pdf = await renderBatchPdf(
      {
        batchId: 'BCH0001',
        country: 'CO',
        type: 'person',
        status: 'completed',
        createdAt: new Date('2031-03-10T12:00:00Z'),
        columns: REPORT_COLUMNS,
        lines,
      },
      'en',
      new Date('2031-03-10T13:00:00Z'),
    );
    const raw = execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8');
    const text = squash(raw);
    for (const line of lines) if (line[2]) expect(text).toContain(String(line[2]));
    expect(text).toContain('national_id must be a string');
    expect(text).toContain('Batch ID: BCH0001');
    expect(text).toContain('2031-03-10 13:00:00 UTC');
    const pages = raw.split('\f').filter((p) => p.trim()).length;
    expect(pages).toBeGreaterThan(1);
    for (let p = 1; p <= pages; p++) expect(text).toContain(`Page ${p} of ${pages}`);
    // 32 rows at 0.25 (high risk), 40 at 1 (low risk), 8 failed rows without a score.
    expect(text).toMatch(/High risk 32 Medium risk 0 Low risk 40 No result 8/);
  });
});
