// One check of the document engine: a named step that reads the shared context and returns its outcome.

import type { DocumentEngineInput, ExtractedDocumentData, SubvalidationOutcome } from '../../engine.ports';
import type { SideAnalysis } from '../image-analysis';
import type { MrzVerification } from '../mrz/mrz-parse';

export interface AnalyzedSide {
  side: 'front' | 'reverse';
  analysis: SideAnalysis;
}

export interface DocumentContext {
  input: DocumentEngineInput;
  now: Date;
  sides: AnalyzedSide[];
  /** The side the MRZ was read from. */
  mrzSide?: 'front' | 'reverse';
  mrz?: MrzVerification;
  extracted: ExtractedDocumentData;
  /** The national ID number checked (typed, or read from the MRZ). */
  nationalNumber?: string;
  /**
   * OCR of the visual zone (front side, or the only side), strip by strip from the top: the text read so far
   * once `enough` says so, else all of it.
   */
  visualText(enough?: (text: string) => boolean): Promise<string | undefined>;
}

export interface DocumentSubvalidation {
  /** Wire name of the subvalidation. */
  readonly name: string;
  /** False when the tenant's document_config switch is off (the outcome is then skipped: disabled). */
  enabled(input: DocumentEngineInput): boolean;
  run(context: DocumentContext): Promise<SubvalidationOutcome>;
}

export const success = (name: string, details?: Record<string, unknown>): SubvalidationOutcome => ({
  name,
  status: 'success',
  ...(details ? { details } : {}),
});

export const failure = (name: string, reason: string, details?: Record<string, unknown>): SubvalidationOutcome => ({
  name,
  status: 'failure',
  reason,
  ...(details ? { details } : {}),
});

export const skipped = (name: string, reason: string, details?: Record<string, unknown>): SubvalidationOutcome => ({
  name,
  status: 'skipped',
  reason,
  ...(details ? { details } : {}),
});
