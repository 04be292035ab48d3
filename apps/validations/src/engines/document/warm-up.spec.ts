import { TesseractRecognizer } from './ocr';
import { warmUpDocumentThreads, warmUpPage } from './warm-up';
import { WorkerDocumentImageAnalyzer } from './worker-analyzer';

jest.setTimeout(120_000);

describe('document threads warm-up', () => {
  it('runs a page through the image thread and both OCR workers, which read text lines from it (their LSTM runs)', async () => {
    const analyzer = new WorkerDocumentImageAnalyzer();
    const ocr = new TesseractRecognizer();
    const reads: { kind: string; image: Buffer; text: string }[] = [];
    const recording = {
      readMrz: async (image: Buffer) => {
        const text = await ocr.readMrz(image);
        reads.push({ kind: 'mrz', image, text });
        return text;
      },
      readText: async (image: Buffer) => {
        const text = await ocr.readText(image);
        reads.push({ kind: 'text', image, text });
        return text;
      },
      close: () => ocr.close(),
    };
    try {
      const side = await analyzer.analyze(warmUpPage());
      // The bottom lines pass for an MRZ: the warm-up reads the located strip, as a passport's first read does.
      expect(side.mrzStripPgm).toBeDefined();
      await warmUpDocumentThreads(analyzer, recording);
      expect(reads.map((r) => r.kind)).toEqual(['mrz', 'text', 'mrz', 'text']);
      expect(reads[0].image.equals(side.mrzStripPgm!)).toBe(true);
      for (const read of reads) expect(read.text.replace(/\s/g, '').length).toBeGreaterThanOrEqual(10);
    } finally {
      await Promise.all([analyzer.close(), ocr.close()]);
    }
  });
});
