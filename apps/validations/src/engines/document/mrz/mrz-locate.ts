// Where the MRZ is on a binarized side, found from the rows alone (no OCR): the machine-readable zone is
// the lowest group of two or three text lines that each run across most of the width with many
// black/white transitions (a monospaced line of 30-44 characters), of like height and evenly spaced.
// The OCR then reads only that strip instead of the lower half or the whole side.

import type { GrayRaster } from '../../image/raster';

export interface MrzRegion {
  /** Top and bottom rows of the strip (padding included), in the raster's pixels. */
  top: number;
  bottom: number;
  /** Text lines found in the strip (2 or 3). */
  lines: number;
}

interface TextLine {
  top: number;
  bottom: number;
}

/** Rows of at least this many transitions per 1,000 px of width are text-like (an MRZ line has ~100-250 per 1,250 px). */
const MIN_TRANSITIONS_PER_1000 = 40;
/** A row's transitions must spread over this share of the width (first to last). */
const MIN_SPAN = 0.55;

/** The MRZ strip of a binarized side (0 = ink), or undefined when no such group of lines is found in its lower 60 %. */
export function locateMrz(bin: GrayRaster): MrzRegion | undefined {
  const { width, height, data } = bin;
  const minTransitions = Math.max(12, (MIN_TRANSITIONS_PER_1000 * width) / 1000);
  const start = Math.floor(height * 0.4);
  const texty: boolean[] = new Array<boolean>(height).fill(false);
  for (let y = start; y < height; y++) {
    const row = y * width;
    let transitions = 0;
    let first = -1;
    let last = -1;
    for (let x = 1; x < width; x++)
      if ((data[row + x] === 0) !== (data[row + x - 1] === 0)) {
        transitions++;
        if (first < 0) first = x;
        last = x;
      }
    texty[y] = transitions >= minTransitions && last - first >= MIN_SPAN * width;
  }
  // Runs of text-like rows (gaps of up to 2 rows closed) are the lines.
  const lines: TextLine[] = [];
  let y = start;
  while (y < height) {
    if (!texty[y]) {
      y++;
      continue;
    }
    const top = y;
    let bottom = y;
    while (y < height && (texty[y] || (y + 1 < height && texty[y + 1]) || (y + 2 < height && texty[y + 2]))) {
      if (texty[y]) bottom = y;
      y++;
    }
    if (bottom - top + 1 >= Math.max(6, height * 0.012) && bottom - top + 1 <= height * 0.15)
      lines.push({ top, bottom });
  }
  // The lowest run of 2-3 lines of like height (within 40 % of each other) and even spacing.
  for (let end = lines.length - 1; end >= 1; end--) {
    const group = [lines[end - 1], lines[end]];
    if (!alike(group)) continue;
    if (end >= 2 && alike([lines[end - 2], ...group])) group.unshift(lines[end - 2]);
    const h = Math.max(...group.map((l) => l.bottom - l.top + 1));
    return {
      top: Math.max(0, Math.floor(group[0].top - 0.6 * h)),
      bottom: Math.min(height - 1, Math.ceil(group[group.length - 1].bottom + 0.6 * h)),
      lines: group.length,
    };
  }
  return undefined;
}

function alike(group: TextLine[]): boolean {
  const heights = group.map((l) => l.bottom - l.top + 1);
  const max = Math.max(...heights);
  if (Math.min(...heights) < 0.6 * max) return false;
  for (let i = 1; i < group.length; i++) {
    const gap = group[i].top - group[i - 1].bottom - 1;
    if (gap < 0 || gap > 1.6 * max) return false;
  }
  return true;
}
