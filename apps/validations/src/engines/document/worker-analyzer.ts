import { UnsupportedImageError } from '../image/raster';
import { WorkerClient, WorkerError } from '../worker/worker-client';
import type { DocumentImageAnalyzer } from './document.engine';
import type { SideAnalysis } from './image-analysis';

/** Measures each side on the document image thread (document-image.worker.ts). */
export class WorkerDocumentImageAnalyzer implements DocumentImageAnalyzer {
  private readonly client = new WorkerClient<{ image: Uint8Array }, SideAnalysis>('document/document-image.worker');

  async analyze(image: Buffer): Promise<SideAnalysis> {
    try {
      // A copy of the upload, moved to the thread (not copied once more by postMessage).
      const copy = new Uint8Array(image);
      const result = await this.client.request({ image: copy }, [copy.buffer]);
      // Structured clone turns Buffers into Uint8Arrays.
      const buffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
      return {
        ...result,
        ...(result.mrzStripPgm ? { mrzStripPgm: buffer(result.mrzStripPgm) } : {}),
        mrzBandPgm: buffer(result.mrzBandPgm),
        fullPgm: buffer(result.fullPgm),
        visualStripsPgm: result.visualStripsPgm.map(buffer),
        visualPgm: buffer(result.visualPgm),
      };
    } catch (err) {
      if (err instanceof WorkerError && err.name === 'UnsupportedImageError')
        throw new UnsupportedImageError(err.message);
      throw err;
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
