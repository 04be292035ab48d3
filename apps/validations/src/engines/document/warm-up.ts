// The document threads' warm-up: a synthetic page run through the image thread and both OCR workers when the
// application starts, so the first validations do not pay for the threads' first work (the image thread's
// start and libvips' load, the analysis loops still interpreted, each Tesseract worker's first recognitions).
// In the benchmark the first passports arrive together, so that cost landed on the slowest of them (the p99);
// docs/benchmarks.md has the figures.

import { createRaster, encodeJpeg, type Raster } from '../image/raster';
import type { DocumentImageAnalyzer } from './document.engine';
import type { TextRecognizer } from './ocr';

/** Passes over the page: a second one still lowers the next validation's CPU. */
const PASSES = 2;

/**
 * A 1250 × 880 JPEG like the pages the engines read: three lines of glyph-like boxes at the top (a visual
 * zone) and two long lines at the bottom that the MRZ locator takes for an MRZ, so both OCR workers run their
 * LSTM on text lines (a blank page would not reach it).
 */
export function warmUpPage(): Buffer {
  const width = 1250;
  const page = createRaster(width, 880, [235, 230, 220]);
  const fill = (r: Raster, x: number, y: number, w: number, h: number) => {
    for (let row = y; row < y + h; row++)
      for (let col = x; col < x + w; col++) r.data.fill(20, (row * width + col) * 4, (row * width + col) * 4 + 3);
  };
  const glyph = (x: number, y: number, size: number) => {
    const w = Math.floor(size * 0.6);
    fill(page, x, y, 2, size);
    fill(page, x + w, y, 2, size);
    fill(page, x, y, w, 2);
    fill(page, x, y + size - 2, w, 2);
  };
  const lines: [top: number, glyphs: number, size: number][] = [
    [40, 14, 16],
    [80, 20, 14],
    [120, 18, 14],
    [760, 60, 18],
    [800, 60, 18],
  ];
  for (const [top, glyphs, size] of lines) for (let k = 0; k < glyphs; k++) glyph(20 + k * 16, top, size);
  return encodeJpeg(page, 90);
}

/** Runs the warm-up page through the image thread and both OCR workers (what a passport validation runs). */
export async function warmUpDocumentThreads(analyzer: DocumentImageAnalyzer, ocr: TextRecognizer): Promise<void> {
  const page = warmUpPage();
  for (let pass = 0; pass < PASSES; pass++) {
    const side = await analyzer.analyze(page);
    await ocr.readMrz(side.mrzStripPgm ?? side.mrzBandPgm);
    await ocr.readText(side.visualStripsPgm[0]);
  }
}
