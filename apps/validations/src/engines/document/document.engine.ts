// The document engine: reads the MRZ of the uploaded sides with OCR, verifies it with the mrz library,
// and runs the subvalidations (always: mrz, document_number, document_expiration; per the tenant's
// document_config: manipulation, photo_of_photo, photocopy, data_consistency, government_database).
// The first failing subvalidation, in that order, gives the declined reason.

import type {
  DocumentEngine,
  DocumentEngineInput,
  DocumentEngineResult,
  ExtractedDocumentData,
  GovernmentRegistry,
  SubvalidationOutcome,
} from '../engine.ports';
import { UnsupportedImageError } from '../image/raster';
import type { SideAnalysis } from './image-analysis';
import { extractMrz } from './mrz/mrz-lines';
import { type MrzVerification, verifyMrz } from './mrz/mrz-parse';
import { checkNationalId } from './national-id/national-id';
import type { TextRecognizer } from './ocr';
import {
  DataConsistencySubvalidation,
  DocumentNumberSubvalidation,
  ExpirationSubvalidation,
  GovernmentDatabaseSubvalidation,
  isNationalDocument,
  MrzSubvalidation,
} from './subvalidations/data-checks';
import {
  ManipulationSubvalidation,
  PhotocopySubvalidation,
  PhotoOfPhotoSubvalidation,
} from './subvalidations/image-checks';
import {
  type AnalyzedSide,
  type DocumentContext,
  type DocumentSubvalidation,
  skipped,
} from './subvalidations/subvalidation';

/** Decodes and measures one side (on a worker thread in production: see document-image.worker.ts). */
export interface DocumentImageAnalyzer {
  analyze(image: Buffer): Promise<SideAnalysis>;
}

export interface DocumentEngineDeps {
  analyzer: DocumentImageAnalyzer;
  ocr: TextRecognizer;
  registry: GovernmentRegistry;
  now?: () => Date;
}

export class OcrDocumentEngine implements DocumentEngine {
  private readonly subvalidations: DocumentSubvalidation[];

  constructor(private readonly deps: DocumentEngineDeps) {
    this.subvalidations = [
      new MrzSubvalidation(),
      new DocumentNumberSubvalidation(),
      new ExpirationSubvalidation(),
      new ManipulationSubvalidation(),
      new PhotoOfPhotoSubvalidation(),
      new PhotocopySubvalidation(),
      new DataConsistencySubvalidation(),
      new GovernmentDatabaseSubvalidation(deps.registry),
    ];
  }

  async validate(input: DocumentEngineInput): Promise<DocumentEngineResult> {
    const now = this.deps.now?.() ?? new Date();
    const sides: AnalyzedSide[] = [];
    try {
      // The reverse first: TD1 cards print the MRZ there.
      if (input.reverse) sides.push({ side: 'reverse', analysis: await this.deps.analyzer.analyze(input.reverse) });
      if (input.front) sides.push({ side: 'front', analysis: await this.deps.analyzer.analyze(input.front) });
    } catch (err) {
      if (err instanceof UnsupportedImageError)
        return {
          status: 'failure',
          declinedReason: 'unreadable_image',
          extracted: {},
          subvalidations: [
            { name: 'image', status: 'failure', reason: 'unreadable_image', details: { error: err.message } },
          ],
        };
      throw err;
    }
    if (sides.length === 0)
      return {
        status: 'failure',
        declinedReason: 'missing_image',
        extracted: {},
        subvalidations: [{ name: 'image', status: 'failure', reason: 'missing_image' }],
      };

    // The manipulation check reads the visual zone's first strip in every case where it gets to compare (an MRZ
    // with a surname, no editor in the metadata): it is read on the text worker while the MRZ worker reads
    // the MRZ, instead of after it. Same reads, in the same order; only the wait is shared.
    const firstStrip = this.prefetchFirstStrip(input, sides);
    const found = await this.readMrz(sides, now);
    const extracted: ExtractedDocumentData = found?.mrz.extracted ?? {};
    const nationalNumber = this.nationalNumber(input, found?.mrz);
    const context: DocumentContext = {
      input,
      now,
      sides,
      mrzSide: found?.side,
      mrz: found?.mrz,
      extracted,
      nationalNumber,
      visualText: (enough) => this.readVisualZone(sides, enough, firstStrip),
    };

    const outcomes: SubvalidationOutcome[] = [];
    for (const sub of this.subvalidations)
      outcomes.push(sub.enabled(input) ? await sub.run(context) : skipped(sub.name, 'disabled'));
    const failed = outcomes.find((o) => o.status === 'failure');
    return {
      status: failed ? 'failure' : 'success',
      ...(failed ? { declinedReason: failed.reason } : {}),
      extracted,
      subvalidations: outcomes,
    };
  }

  /**
   * OCR of the MRZ strip of each side (where the rows showed one), then of the bottom band, then of the whole
   * side, until an MRZ that parses is found. A strip read with failing check digits is not the answer yet:
   * the band is read too, and its reading (or else the strip's) is kept.
   */
  private async readMrz(
    sides: AnalyzedSide[],
    now: Date,
  ): Promise<{ side: 'front' | 'reverse'; mrz: MrzVerification } | undefined> {
    let fallback: { side: 'front' | 'reverse'; mrz: MrzVerification } | undefined;
    let stripFallback: typeof fallback;
    for (const pass of ['mrzStripPgm', 'mrzBandPgm', 'fullPgm'] as const) {
      for (const { side, analysis } of sides) {
        const image = analysis[pass];
        if (!image) continue;
        const lines = extractMrz(await this.deps.ocr.readMrz(image));
        if (!lines) continue;
        const mrz = verifyMrz(lines.lines, now);
        if (!mrz) continue;
        if (mrz.valid || mrz.failedCheckDigits.length === 0) return { side, mrz };
        if (pass === 'mrzStripPgm') stripFallback ??= { side, mrz };
        else fallback ??= { side, mrz };
      }
      if (fallback) return fallback;
    }
    return stripFallback;
  }

  /** The side whose visual zone the manipulation check reads: the front, or the only side. */
  private visualSide(sides: AnalyzedSide[]): AnalyzedSide | undefined {
    return sides.find((s) => s.side === 'front') ?? sides[0];
  }

  /** The OCR of the visual zone's first strip, started now when the manipulation check will read it. */
  private prefetchFirstStrip(input: DocumentEngineInput, sides: AnalyzedSide[]): Promise<string> | undefined {
    if (!input.checks.manipulation || sides.some((s) => s.analysis.metrics.editingSoftware)) return undefined;
    const strip = this.visualSide(sides)?.analysis.visualStripsPgm[0];
    if (!strip) return undefined;
    const read = this.deps.ocr.readText(strip);
    read.catch(() => undefined); // unread when no MRZ surname is found; a failure then concerns nobody
    return read;
  }

  /** The visual zone's strips OCR'd top to bottom, until `enough` is satisfied with the text so far. */
  private async readVisualZone(
    sides: AnalyzedSide[],
    enough: (text: string) => boolean = () => false,
    firstStrip?: Promise<string>,
  ): Promise<string | undefined> {
    const side = this.visualSide(sides);
    if (!side) return undefined;
    let text = '';
    for (const [i, strip] of side.analysis.visualStripsPgm.entries()) {
      text += await (i === 0 && firstStrip ? firstStrip : this.deps.ocr.readText(strip));
      if (enough(text)) return text;
    }
    // Not satisfied by the strips (a cut may have split a line): the zone whole, as one read.
    return side.analysis.visualStripsPgm.length > 1 ? this.deps.ocr.readText(side.analysis.visualPgm) : text;
  }

  /** The typed number when given, else a number from the MRZ's optional data or number field that passes the country's algorithm. */
  private nationalNumber(input: DocumentEngineInput, mrz: MrzVerification | undefined): string | undefined {
    if (input.expected.documentNumber) return input.expected.documentNumber;
    if (!mrz || !isNationalDocument(input)) return mrz?.extracted.documentNumber;
    const candidates = [...mrz.optionalData, mrz.extracted.documentNumber ?? ''].filter(Boolean);
    return candidates.find((c) => checkNationalId(input.country, c)?.valid) ?? candidates[0];
  }
}
