// The face engine: detection, 128-d descriptors and passive liveness on a worker thread (face.worker.ts),
// similarity on the caller's thread (a 128-term sum).

import type { FaceDescription, FaceEngine } from '../engine.ports';
import { WorkerClient, WorkerError } from '../worker/worker-client';
import type { FaceWorkerData } from './face.worker';
import { descriptorSimilarity } from './similarity';

export class FaceImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaceImageError';
  }
}

export class WorkerFaceEngine implements FaceEngine {
  private readonly client: WorkerClient<{ image: Uint8Array }, FaceDescription & { ms: number }>;

  constructor(options: FaceWorkerData = {}) {
    this.client = new WorkerClient('face/face.worker', options);
  }

  /** Faces in the image, largest first, with the liveness of the largest. Throws FaceImageError for an undecodable image. */
  async describe(image: Buffer): Promise<FaceDescription> {
    try {
      // A copy of the upload, moved to the thread (not copied once more by postMessage).
      const copy = new Uint8Array(image);
      const { faces, liveness } = await this.client.request({ image: copy }, [copy.buffer]);
      return liveness ? { faces, liveness } : { faces };
    } catch (err) {
      if (err instanceof WorkerError && err.name === 'UnsupportedImageError') throw new FaceImageError(err.message);
      throw err;
    }
  }

  similarity(a: number[], b: number[]): number {
    return descriptorSimilarity(a, b);
  }

  /** Loads the models now (they otherwise load on the first describe). */
  warmUp(): Promise<void> {
    return this.client.warmUp();
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
