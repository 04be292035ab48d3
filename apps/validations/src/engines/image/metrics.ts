// Image measurements shared by the document checks and the face liveness heuristic.

import type { GrayRaster, Raster } from './raster';

export function colour(raster: Raster): { colorfulShare: number; meanChroma: number } {
  const step = Math.max(1, Math.floor(Math.sqrt((raster.width * raster.height) / 40_000)));
  let colourful = 0;
  let chromaSum = 0;
  let n = 0;
  for (let y = 0; y < raster.height; y += step)
    for (let x = 0; x < raster.width; x += step) {
      const i = (y * raster.width + x) * 4;
      const r = raster.data[i];
      const g = raster.data[i + 1];
      const b = raster.data[i + 2];
      const chroma = Math.max(r, g, b) - Math.min(r, g, b);
      chromaSum += chroma;
      if (chroma > 15) colourful++;
      n++;
    }
  return { colorfulShare: colourful / n, meanChroma: chromaSum / n };
}

export function laplacianVariance(gray: GrayRaster): number {
  const { width, height, data } = gray;
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++)
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const lap = data[i - 1] + data[i + 1] + data[i - width] + data[i + width] - 4 * data[i];
      sum += lap;
      sumSq += lap * lap;
      n++;
    }
  if (n === 0) return 0;
  const mean = sum / n;
  return sumSq / n - mean * mean;
}

/**
 * A display's pixel grid photographed head-on leaves rows (and columns) that are periodically darker.
 * For each period k in 3, 5, 6, 7 (not 2, 4, 8: JPEG's 8×8 blocks), the central half of the image's row
 * means are grouped by y mod k; the spread between the group averages is the grid's strength (content
 * averages out over the ~100 rows of each group, a grid does not).
 */
export function gridStrength(gray: GrayRaster): number {
  const { width, height, data } = gray;
  const x0 = Math.floor(width * 0.25);
  const x1 = Math.floor(width * 0.75);
  const y0 = Math.floor(height * 0.25);
  const y1 = Math.floor(height * 0.75);
  const rowMeans: number[] = [];
  for (let y = y0; y < y1; y++) {
    let s = 0;
    for (let x = x0; x < x1; x++) s += data[y * width + x];
    rowMeans.push(s / (x1 - x0));
  }
  const colMeans: number[] = [];
  for (let x = x0; x < x1; x++) {
    let s = 0;
    for (let y = y0; y < y1; y++) s += data[y * width + x];
    colMeans.push(s / (y1 - y0));
  }
  const spread = (series: number[], k: number) => {
    if (series.length < k * 20) return 0;
    const sums = new Array<number>(k).fill(0);
    const counts = new Array<number>(k).fill(0);
    series.forEach((v, i) => {
      sums[i % k] += v;
      counts[i % k]++;
    });
    const means = sums.map((s, i) => s / counts[i]);
    return Math.max(...means) - Math.min(...means);
  };
  let best = 0;
  for (const k of [3, 5, 6, 7]) best = Math.max(best, Math.min(spread(rowMeans, k), spread(colMeans, k)));
  return best;
}
