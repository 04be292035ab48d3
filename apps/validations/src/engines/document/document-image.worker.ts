// The document engine's image thread: decoding, measuring and preparing the OCR images of one side at a
// time (analyzeSide), off the event loop that serves HTTP.

import { serve } from '../worker/worker-host';
import { analyzeSide, type SideAnalysis } from './image-analysis';

serve<{ image: Uint8Array }, SideAnalysis>(
  () => Promise.resolve(),
  async ({ image }) => {
    const result = await analyzeSide(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
    // The OCR images (each PGM in an ArrayBuffer of its own: encodePgm) are moved to the caller, not copied:
    // a copy of them was a tenth of this thread's work and landed on the caller's event loop.
    const pgms = [result.mrzStripPgm, result.mrzBandPgm, result.fullPgm, result.visualPgm, ...result.visualStripsPgm];
    const transfer = [...new Set(pgms.flatMap((b) => (b ? [b.buffer] : [])))];
    return { result, transfer };
  },
);
