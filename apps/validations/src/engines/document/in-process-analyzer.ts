import type { DocumentImageAnalyzer } from './document.engine';
import { analyzeSide, type SideAnalysis } from './image-analysis';

/** Measures a side on the calling thread (unit tests; production uses the worker-thread analyzer). */
export class InProcessDocumentImageAnalyzer implements DocumentImageAnalyzer {
  analyze(image: Buffer): Promise<SideAnalysis> {
    return Promise.resolve().then(() => analyzeSide(image));
  }
}
