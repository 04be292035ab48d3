// The document engine's image thread: decoding, measuring and preparing the OCR images of one side at a
// time (analyzeSide), off the event loop that serves HTTP.

import { serve } from '../worker/worker-host';
import { analyzeSide, type SideAnalysis } from './image-analysis';

serve<{ image: Uint8Array }, SideAnalysis>(
  () => Promise.resolve(),
  ({ image }) => {
    // Copied back (not transferred): pngjs's small outputs may share Node's Buffer pool.
    return Promise.resolve({ result: analyzeSide(Buffer.from(image.buffer, image.byteOffset, image.byteLength)) });
  },
);
