// Everything the document engine measures on one uploaded side, in one pass over the decoded pixels:
// the images handed to OCR (the MRZ strip located from the rows, the bottom band where an MRZ is printed,
// the whole side, the visual zone above the MRZ; binarized, as PGM), colour,
// sharpness, screen-grid periodicity and a dark frame, and the editing software named in the file's metadata.
// It runs on the document image thread (document-image.worker.ts): the decode awaits libvips (decodeImage),
// the rest is synchronous JavaScript over the pixels.

import { colour, gridStrength, laplacianVariance } from '../image/metrics';
import {
  binarize,
  cropGray,
  decodeImage,
  encodePgm,
  type GrayRaster,
  imageFormat,
  shrinkGray,
  toGray,
} from '../image/raster';
import { editingSoftware } from './metadata';
import { locateMrz } from './mrz/mrz-locate';

export interface ImageMetrics {
  width: number;
  height: number;
  /** Share of sampled pixels with a chroma (max − min channel) above 15: ~0 for a grayscale image. */
  colorfulShare: number;
  /** Mean chroma of the sampled pixels (0..255). */
  meanChroma: number;
  /** Variance of the Laplacian of the luma (downscaled to 1000 px wide): low is blurred. */
  sharpness: number;
  /** Strongest periodic row/column pattern with a period of 3, 5, 6 or 7 px (a screen's pixel grid), in luma levels. */
  gridStrength: number;
  /** Sides (0..4) of the image whose outer 5 % band is dark and flat (a screen bezel or a dark frame). */
  darkFrameSides: number;
  /** The image editor named in Exif/XMP/PNG text metadata, when any. */
  editingSoftware?: string;
}

/** The OCR inputs of a side: binarized, at most 1400 px wide, binary PGM (encodePgm). */
export interface SideAnalysis {
  metrics: ImageMetrics;
  /** The MRZ's lines alone (locateMrz), when the rows show them: the first MRZ OCR input. */
  mrzStripPgm?: Buffer;
  /** The bottom band (the lower 55 %): the MRZ OCR input when the strip was not found or not read. */
  mrzBandPgm: Buffer;
  /** The whole side: the last MRZ attempt. */
  fullPgm: Buffer;
  /**
   * The visual zone (the side above the MRZ strip; the whole side when no strip was found), the manipulation
   * check's OCR input, in VISUAL_STRIPS horizontal strips cut between text lines, top first.
   */
  visualStripsPgm: Buffer[];
  /** The visual zone whole: read when the strips did not satisfy the check (a cut may split a line). */
  visualPgm: Buffer;
}

const OCR_WIDTH = 1400;
const VISUAL_STRIPS = 3;

export async function analyzeSide(bytes: Buffer): Promise<SideAnalysis> {
  const raster = await decodeImage(bytes);
  const gray = toGray(raster);
  const ocrGray = shrinkGray(gray, OCR_WIDTH);
  const band = cropGray(ocrGray, 0, ocrGray.height * 0.45, ocrGray.width, ocrGray.height * 0.55);
  const full = binarize(ocrGray);
  const strip = locateMrz(full);
  const fullPgm = encodePgm(full);
  const visual = strip && strip.top > ocrGray.height * 0.3 ? cropGray(full, 0, 0, full.width, strip.top) : full;
  const format = imageFormat(bytes);
  return {
    metrics: {
      width: raster.width,
      height: raster.height,
      ...colour(raster),
      sharpness: laplacianVariance(shrinkGray(gray, 1000)),
      gridStrength: gridStrength(gray),
      darkFrameSides: darkFrameSides(gray),
      editingSoftware: format ? editingSoftware(bytes, format) : undefined,
    },
    ...(strip
      ? {
          mrzStripPgm: encodePgm(
            binarize(cropGray(ocrGray, 0, strip.top, ocrGray.width, strip.bottom - strip.top + 1)),
          ),
        }
      : {}),
    mrzBandPgm: encodePgm(binarize(band)),
    fullPgm,
    visualStripsPgm: horizontalStrips(visual, VISUAL_STRIPS).map(encodePgm),
    visualPgm: visual === full ? fullPgm : encodePgm(visual),
  };
}

/**
 * A binarized image cut into `count` horizontal strips of about equal height, each cut at the row with the
 * fewest black/white transitions within an eighth of the height of its nominal place (a gap between text
 * lines), so no line is split.
 */
export function horizontalStrips(bin: GrayRaster, count: number): GrayRaster[] {
  const { width, height, data } = bin;
  if (height < count * 40) return [bin];
  const transitions = (y: number) => {
    let n = 0;
    for (let x = 1; x < width; x++) if ((data[y * width + x] === 0) !== (data[y * width + x - 1] === 0)) n++;
    return n;
  };
  const cuts = [0];
  const window = Math.floor(height / 8);
  for (let k = 1; k < count; k++) {
    const nominal = Math.round((k * height) / count);
    let best = nominal;
    let fewest = Infinity;
    for (let y = nominal - window; y <= nominal + window; y++) {
      const t = transitions(y);
      if (t < fewest || (t === fewest && Math.abs(y - nominal) < Math.abs(best - nominal))) {
        fewest = t;
        best = y;
      }
    }
    cuts.push(best);
  }
  cuts.push(height);
  return cuts.slice(1).map((end, i) => cropGray(bin, 0, cuts[i], width, end - cuts[i]));
}

function darkFrameSides(gray: GrayRaster): number {
  const { width, height, data } = gray;
  const bw = Math.max(2, Math.floor(width * 0.05));
  const bh = Math.max(2, Math.floor(height * 0.05));
  const stats = (x0: number, y0: number, w: number, h: number) => {
    let s = 0;
    let sq = 0;
    let n = 0;
    for (let y = y0; y < y0 + h; y += 2)
      for (let x = x0; x < x0 + w; x += 2) {
        const v = data[y * width + x];
        s += v;
        sq += v * v;
        n++;
      }
    const mean = s / n;
    return { mean, sd: Math.sqrt(Math.max(0, sq / n - mean * mean)) };
  };
  const bands = [
    stats(0, 0, width, bh),
    stats(0, height - bh, width, bh),
    stats(0, 0, bw, height),
    stats(width - bw, 0, bw, height),
  ];
  return bands.filter((b) => b.mean < 45 && b.sd < 12).length;
}
