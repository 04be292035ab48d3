// The three image heuristics: photocopy, photo of photo, manipulation. Method and limits are in
// docs/services/validations-engines.md ("Image checks").

import type { DocumentEngineInput, SubvalidationOutcome } from '../../engine.ports';
import { normalizeName } from '../countries';
import { type DocumentContext, type DocumentSubvalidation, failure, success } from './subvalidation';

/** A photocopy: no colour on any side (each side: under 1 % of pixels with chroma above 15, mean chroma under 4). */
export class PhotocopySubvalidation implements DocumentSubvalidation {
  readonly name = 'photocopy';
  enabled = (input: DocumentEngineInput) => input.checks.photocopy;

  run(context: DocumentContext): Promise<SubvalidationOutcome> {
    const sides = context.sides.map((s) => ({
      side: s.side,
      colorful_share: round(s.analysis.metrics.colorfulShare),
      mean_chroma: round(s.analysis.metrics.meanChroma),
    }));
    const gray = sides.filter((s) => s.colorful_share < 0.01 && s.mean_chroma < 4);
    return Promise.resolve(
      gray.length === sides.length ? failure(this.name, 'photocopy', { sides }) : success(this.name, { sides }),
    );
  }
}

/**
 * A photo of a photo or of a screen: a display's pixel grid (a periodic row and column pattern of 3-7 px
 * stronger than 4 luma levels), or a dark flat frame on all four sides around a blurred picture.
 */
export class PhotoOfPhotoSubvalidation implements DocumentSubvalidation {
  readonly name = 'photo_of_photo';
  enabled = (input: DocumentEngineInput) => input.checks.photoOfPhoto;

  run(context: DocumentContext): Promise<SubvalidationOutcome> {
    const sides = context.sides.map((s) => {
      const m = s.analysis.metrics;
      const grid = m.gridStrength > 4;
      const framedBlur = m.darkFrameSides === 4 && m.sharpness < 150;
      return {
        side: s.side,
        grid_strength: round(m.gridStrength),
        dark_frame_sides: m.darkFrameSides,
        sharpness: round(m.sharpness),
        recaptured: grid || framedBlur,
      };
    });
    return Promise.resolve(
      sides.some((s) => s.recaptured) ? failure(this.name, 'photo_of_photo', { sides }) : success(this.name, { sides }),
    );
  }
}

/**
 * Manipulation: an image editor named in a side's metadata, or a visual zone that does not carry the
 * MRZ's surname (each surname word of 3+ letters must be found in the OCR'd visual zone within one edit).
 */
export class ManipulationSubvalidation implements DocumentSubvalidation {
  readonly name = 'manipulation';
  enabled = (input: DocumentEngineInput) => input.checks.manipulation;

  async run(context: DocumentContext): Promise<SubvalidationOutcome> {
    const edited = context.sides.find((s) => s.analysis.metrics.editingSoftware);
    if (edited)
      return failure(this.name, 'manipulated_document', {
        rule: 'editing_software',
        side: edited.side,
        software: edited.analysis.metrics.editingSoftware,
      });
    const surname = context.mrz?.extracted.lastName;
    if (!surname) return success(this.name, { visual_zone: 'not_compared' });
    const expected = normalizeName(surname)
      .split(' ')
      .filter((w) => w.length >= 3);
    const judge = (text: string | undefined) => {
      const words = text ? normalizeName(text).split(' ') : [];
      return {
        legible: words.filter((w) => w.length >= 3).length >= 4,
        missing: expected.filter((w) => !words.some((v) => editDistance(v, w) <= 1)),
      };
    };
    // Reading stops at the strip where the surname (and 4 legible words) have been seen: the outcome is then
    // the one the whole zone would give.
    const { legible, missing } = judge(
      await context.visualText((text) => {
        const j = judge(text);
        return j.legible && j.missing.length === 0;
      }),
    );
    if (!legible) return success(this.name, { visual_zone: 'illegible' });
    if (missing.length > 0)
      return failure(this.name, 'manipulated_document', { rule: 'visual_zone_mismatch', mrz_words_missing: missing });
    return success(this.name, { visual_zone: 'matches_mrz' });
  }
}

export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
