// Finding the MRZ in OCR output: lines of A-Z, 0-9 and the filler <, in the lengths of ICAO 9303 formats
// (TD1: 3 × 30, TD2: 2 × 36, TD3: 2 × 44). OCR drops or adds trailing fillers, so lines are matched within
// a tolerance and then padded or cut to the format's length.

export type MrzFormatName = 'TD1' | 'TD2' | 'TD3';

const FORMATS: Array<{ format: MrzFormatName; lines: number; length: number }> = [
  { format: 'TD3', lines: 2, length: 44 },
  { format: 'TD2', lines: 2, length: 36 },
  { format: 'TD1', lines: 3, length: 30 },
];

/** Clean text lines: spaces removed, only MRZ characters kept; short lines dropped. */
export function mrzCandidates(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) =>
      line
        .toUpperCase()
        .replace(/[«‹]/g, '<')
        .replace(/\s+/g, '')
        .replace(/[^A-Z0-9<]/g, ''),
    )
    .filter((line) => line.length >= 24);
}

function fit(line: string, length: number): string {
  if (line.length === length) return line;
  if (line.length < length) return line + '<'.repeat(length - line.length);
  // Extra characters are most often spurious fillers read at the end.
  const trimmed = line.replace(/<+$/, '');
  return trimmed.length <= length ? trimmed + '<'.repeat(length - trimmed.length) : line.slice(0, length);
}

/**
 * The MRZ lines in OCR text: for each format, the last run of consecutive candidate lines whose lengths
 * fit it (within −6/+3 characters); the format whose lines deviate least from its length wins (ties go to
 * the format with more lines). The lines are normalised to the format's length; undefined when none fits.
 */
export function extractMrz(text: string): { format: MrzFormatName; lines: string[] } | undefined {
  const candidates = mrzCandidates(text);
  let best: { format: MrzFormatName; lines: string[]; deviation: number; count: number } | undefined;
  for (const { format, lines, length } of FORMATS) {
    for (let end = candidates.length; end >= lines; end--) {
      const group = candidates.slice(end - lines, end);
      if (!group.every((l) => l.length >= length - 6 && l.length <= length + 3)) continue;
      if (!group.some((l) => l.includes('<'))) continue;
      if (format === 'TD3' && !/^[PV]/.test(group[0])) continue;
      const deviation = group.reduce((sum, l) => sum + Math.abs(l.length - length), 0) / lines;
      if (!best || deviation < best.deviation || (deviation === best.deviation && lines > best.count))
        best = { format, lines: group.map((l) => fit(l, length)), deviation, count: lines };
      break;
    }
  }
  return best ? { format: best.format, lines: best.lines } : undefined;
}
