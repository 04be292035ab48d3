import { Injectable } from '@nestjs/common';

/** Speech-to-text of the user's video (a speech provider in production). */
export abstract class SpeechRecognizer {
  /** The words spoken in the video, or undefined when none could be made out. */
  abstract transcribe(video: Buffer): Promise<string | undefined>;
}

/**
 * SANDBOX speech provider: no model runs here, so it reads a transcript the test fixture embeds
 * in the video container as `SPEECH:<words>\n` (videos without it: nothing heard).
 */
@Injectable()
export class SandboxSpeechRecognizer extends SpeechRecognizer {
  transcribe(video: Buffer): Promise<string | undefined> {
    const m = /SPEECH:([^\n\0]{1,200})/.exec(video.toString('latin1'));
    return Promise.resolve(m?.[1].trim());
  }
}

/** Minimum similarity of the transcript with the speech_token per speech_precision. */
export const SPEECH_MIN_MATCH: Record<string, number> = { very_high: 0.95, high: 0.85, medium: 0.7, low: 0.5 };

/** 1 - normalized Levenshtein distance of two phrases (case and accents ignored). */
export function phraseSimilarity(a: string, b: string): number {
  const norm = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9 ]/g, '')
      .replace(/\s+/g, ' ')
      .trim();
  const x = norm(a);
  const y = norm(b);
  if (!x.length && !y.length) return 1;
  const row = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (x[i - 1] === y[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return 1 - row[y.length] / Math.max(x.length, y.length);
}
