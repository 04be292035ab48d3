import { renderCheckPdf } from './check-pdf.renderer';
import { PDF_INPUTS, PDF_TEXT, PDF_VALUES } from './pdf-labels';

describe('check PDF renderer', () => {
  const content = {
    checkId: 'CHK1',
    country: 'CO',
    type: 'person',
    status: 'completed',
    createdAt: new Date('2031-03-10T12:00:00Z'),
    inputs: { national_id: '1' },
    score: 0.5,
    idScore: 0.5,
    homonymScore: 1,
    scores: [],
    statuses: [],
    recordsFound: {},
  };

  it('renders a PDF document in each language', async () => {
    for (const lang of ['es', 'en', 'pt'] as const) {
      const pdf = await renderCheckPdf(content, lang, new Date('2031-03-10T12:00:00Z'));
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.length).toBeGreaterThan(500);
    }
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
