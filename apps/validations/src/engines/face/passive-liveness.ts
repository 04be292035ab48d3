// Passive liveness of one photo (no challenge, no second frame): texture and colour of the face region.
// A re-captured face (a printed photo or a screen held to the camera) tends to lose fine detail, to lose
// colour (black-and-white prints) and, on screens, to show the display's pixel grid. Method and limits:
// docs/services/validations-engines.md ("Passive liveness").

import type { FaceBox } from '../engine.ports';
import { colour, gridStrength, laplacianVariance } from '../image/metrics';
import { cropGray, type Raster, toGray } from '../image/raster';

export const LIVENESS_METHOD = 'texture-color-grid-v1';
export const LIVENESS_PASS_SCORE = 0.5;

export interface LivenessResult {
  score: number;
  passed: boolean;
  method: string;
  signals: { sharpness: number; meanChroma: number; gridStrength: number };
}

function cropRaster(r: Raster, box: FaceBox): Raster {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const w = Math.max(1, Math.min(r.width - x0, Math.floor(box.width)));
  const h = Math.max(1, Math.min(r.height - y0, Math.floor(box.height)));
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    data.set(r.data.subarray(((y0 + y) * r.width + x0) * 4, ((y0 + y) * r.width + x0 + w) * 4), y * w * 4);
  return { width: w, height: h, data };
}

/** Scales a grayscale crop to 160 px wide (area average or nearest-neighbour upscale) so sharpness compares across face sizes. */
function normalizeWidth(gray: { width: number; height: number; data: Uint8Array }, width = 160) {
  const f = gray.width / width;
  const height = Math.max(1, Math.round(gray.height / f));
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const sx0 = Math.floor(x * f);
      const sy0 = Math.floor(y * f);
      const sx1 = Math.max(sx0 + 1, Math.floor((x + 1) * f));
      const sy1 = Math.max(sy0 + 1, Math.floor((y + 1) * f));
      let sum = 0;
      let n = 0;
      for (let sy = sy0; sy < Math.min(sy1, gray.height); sy++)
        for (let sx = sx0; sx < Math.min(sx1, gray.width); sx++) {
          sum += gray.data[sy * gray.width + sx];
          n++;
        }
      out[y * width + x] = n ? sum / n : 0;
    }
  return { width, height, data: out };
}

/**
 * score = (no screen grid) × (0.4 × sharpness term + 0.6 × colour term), each term clamped to 0..1:
 * sharpness: (variance of the Laplacian of the inner face at 160 px − 10) / 150; colour: (mean chroma − 4) / 16.
 * Passed when score ≥ 0.5.
 */
export function passiveLiveness(image: Raster, box: FaceBox): LivenessResult {
  const face = cropRaster(image, box);
  const gray = toGray(face);
  const inner = cropGray(gray, gray.width * 0.15, gray.height * 0.15, gray.width * 0.7, gray.height * 0.7);
  const sharpness = laplacianVariance(normalizeWidth(inner));
  const { meanChroma } = colour(face);
  const grid = gridStrength(gray);
  const sharpTerm = Math.min(1, Math.max(0, (sharpness - 10) / 150));
  const colourTerm = Math.min(1, Math.max(0, (meanChroma - 4) / 16));
  const score = (grid > 4 ? 0 : 1) * (0.4 * sharpTerm + 0.6 * colourTerm);
  const rounded = Math.round(score * 1000) / 1000;
  return {
    score: rounded,
    passed: rounded >= LIVENESS_PASS_SCORE,
    method: LIVENESS_METHOD,
    signals: {
      sharpness: Math.round(sharpness),
      meanChroma: Math.round(meanChroma * 10) / 10,
      gridStrength: Math.round(grid * 100) / 100,
    },
  };
}
