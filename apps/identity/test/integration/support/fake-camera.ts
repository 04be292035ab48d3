import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import * as jpeg from 'jpeg-js';

/** Decoded RGBA pixels. */
export interface Raster {
  width: number;
  height: number;
  data: Uint8Array;
}

export const decodeFixture = (file: string): Raster => {
  const img = jpeg.decode(readFileSync(file), { useTArray: true });
  return { width: img.width, height: img.height, data: img.data };
};

export const encodeJpeg = (img: Raster, quality = 90): Buffer =>
  jpeg.encode({ width: img.width, height: img.height, data: Buffer.from(img.data) }, quality).data;

/** A separable box blur of radius r (what an unfocused camera gives); a sliding sum, edges clamped. */
export function boxBlur(img: Raster, r: number): Raster {
  const { width: w, height: h } = img;
  const pass = (src: Uint8Array, n: number, lines: number, at: (line: number, i: number) => number) => {
    const out = new Uint8Array(src.length);
    for (let line = 0; line < lines; line++)
      for (let c = 0; c < 4; c++) {
        const px = (i: number) => src[at(line, Math.min(n - 1, Math.max(0, i))) * 4 + c];
        let sum = 0;
        for (let k = -r; k <= r; k++) sum += px(k);
        for (let i = 0; i < n; i++) {
          out[at(line, i) * 4 + c] = Math.round(sum / (2 * r + 1));
          sum += px(i + r + 1) - px(i - r);
        }
      }
    return out;
  };
  const rows = pass(img.data, w, h, (y, x) => y * w + x);
  return { width: w, height: h, data: pass(rows, h, w, (x, y) => y * w + x) };
}

/** The image with its light scaled by f (0.2: a dim room). */
export const darken = (img: Raster, f: number): Raster => ({
  ...img,
  data: img.data.map((v, i) => (i % 4 === 3 ? v : Math.round(v * f))),
});

/**
 * A YUV4MPEG2 video (the format Chromium's --use-file-for-fake-video-capture reads): `frames` copies of
 * the image, 4:2:0 (even sides: a last odd row or column is dropped), BT.601 video range (what Chromium expects).
 */
export function y4m(img: Raster, frames = 2): Buffer {
  const w = img.width & ~1;
  const h = img.height & ~1;
  const ySize = w * h;
  const cSize = (w / 2) * (h / 2);
  const frame = Buffer.alloc(ySize + 2 * cSize);
  const px = (x: number, y: number) => {
    const o = (y * img.width + x) * 4;
    return [img.data[o], img.data[o + 1], img.data[o + 2]];
  };
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const [r, g, b] = px(x, y);
      frame[y * w + x] = clamp(16 + (219 / 255) * (0.299 * r + 0.587 * g + 0.114 * b));
    }
  for (let y = 0; y < h / 2; y++)
    for (let x = 0; x < w / 2; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ]) {
        const p = px(2 * x + dx, 2 * y + dy);
        r += p[0] / 4;
        g += p[1] / 4;
        b += p[2] / 4;
      }
      frame[ySize + y * (w / 2) + x] = clamp(128 + (224 / 255) * (-0.168736 * r - 0.331264 * g + 0.5 * b));
      frame[ySize + cSize + y * (w / 2) + x] = clamp(128 + (224 / 255) * (0.5 * r - 0.418688 * g - 0.081312 * b));
    }
  const header = Buffer.from(`YUV4MPEG2 W${w} H${h} F10:1 Ip A1:1 C420jpeg\n`);
  const parts: Buffer[] = [header];
  for (let i = 0; i < frames; i++) parts.push(Buffer.from('FRAME\n'), frame);
  return Buffer.concat(parts);
}

/** Writes the fake camera videos of a test run into a temporary directory; answers their paths. */
export function writeCameraVideos(videos: Record<string, Raster>): Record<string, string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'kyc-camera-'));
  const out: Record<string, string> = {};
  for (const [name, img] of Object.entries(videos)) {
    out[name] = path.join(dir, `${name}.y4m`);
    writeFileSync(out[name], y4m(img));
  }
  return out;
}
