// Face photos for tests, cut from the group photos that ship with @vladmandic/face-api (demo/sample1..6.jpg).
// Faces in one group photo are different people; a "second photo" of the same person is the same face
// captured again (framed differently, brighter, re-encoded at a lower JPEG quality). Boxes are the
// detector's own (SSD MobileNet v1, measured once and written down here).

import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { FaceBox } from '../../../src/engines/engine.ports';
import { createRaster, decodeImage, encodeJpeg, type Raster } from '../../../src/engines/image/raster';

export type SampleNumber = 1 | 2 | 3 | 4 | 5 | 6;

export interface SampleFace {
  sample: SampleNumber;
  box: FaceBox;
}

/** Faces used by the tests and the measurements (docs/services/validations-engines.md). */
export const SAMPLE_FACES = {
  /** sample1, right: long blond hair, smiling. */
  s1Blonde: { sample: 1, box: { x: 1476, y: 200, width: 203, height: 241 } },
  /** sample1, middle: dark hair, face paint. */
  s1Dark: { sample: 1, box: { x: 838, y: 421, width: 187, height: 227 } },
  /** sample1, left: face paint dots. */
  s1Left: { sample: 1, box: { x: 414, y: 355, width: 178, height: 238 } },
  /** sample4, right: blond, smiling (visually the same woman as s1Blonde, in another photo). */
  s4Blonde: { sample: 4, box: { x: 1277, y: 144, width: 145, height: 243 } },
  /** sample5, right: the largest face of the staircase photo. */
  s5Right: { sample: 5, box: { x: 1406, y: 390, width: 166, height: 270 } },
} satisfies Record<string, SampleFace>;

const cache = new Map<SampleNumber, Raster>();

export function samplePath(sample: SampleNumber): string {
  return path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', `sample${sample}.jpg`);
}

/** The whole group photo (1920 px wide JPEG). */
export function sampleImage(sample: SampleNumber): Buffer {
  return readFileSync(samplePath(sample));
}

async function decoded(sample: SampleNumber): Promise<Raster> {
  let r = cache.get(sample);
  if (!r) {
    r = await decodeImage(sampleImage(sample));
    cache.set(sample, r);
  }
  return r;
}

export interface CropOptions {
  /** Context around the face, as a fraction of the box's size on each side (default 0.8). */
  margin?: number;
  /** Output width, px (default 400). */
  width?: number;
  /** Added to every channel (default 0). */
  brightness?: number;
  /** JPEG quality (default 90). */
  quality?: number;
  /** Grayscale (a black-and-white print). */
  grayscale?: boolean;
  /** Every third row and column darkened by 12 % (a screen's pixel grid). */
  screenGrid?: boolean;
}

/** A portrait cut around a face of a sample photo, as a JPEG. */
export async function faceCrop(face: SampleFace, options: CropOptions = {}): Promise<Buffer> {
  const src = await decoded(face.sample);
  const margin = options.margin ?? 0.8;
  const x0 = Math.max(0, face.box.x - face.box.width * margin);
  const y0 = Math.max(0, face.box.y - face.box.height * margin);
  const x1 = Math.min(src.width, face.box.x + face.box.width * (1 + margin));
  const y1 = Math.min(src.height, face.box.y + face.box.height * (1 + margin));
  const width = options.width ?? 400;
  const scale = (x1 - x0) / width;
  const height = Math.round((y1 - y0) / scale);
  const out = createRaster(width, height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      // Bilinear sample.
      const fx = x0 + (x + 0.5) * scale - 0.5;
      const fy = y0 + (y + 0.5) * scale - 0.5;
      const ix = Math.max(0, Math.min(src.width - 2, Math.floor(fx)));
      const iy = Math.max(0, Math.min(src.height - 2, Math.floor(fy)));
      const ax = Math.min(1, Math.max(0, fx - ix));
      const ay = Math.min(1, Math.max(0, fy - iy));
      const o = (y * width + x) * 4;
      const rgb = [0, 0, 0];
      for (let c = 0; c < 3; c++) {
        const p = (yy: number, xx: number) => src.data[(yy * src.width + xx) * 4 + c];
        rgb[c] =
          p(iy, ix) * (1 - ax) * (1 - ay) +
          p(iy, ix + 1) * ax * (1 - ay) +
          p(iy + 1, ix) * (1 - ax) * ay +
          p(iy + 1, ix + 1) * ax * ay;
      }
      if (options.grayscale) rgb.fill(rgb[0] * 0.299 + rgb[1] * 0.587 + rgb[2] * 0.114);
      const grid = options.screenGrid && (x % 3 === 0 || y % 3 === 0) ? 0.88 : 1;
      for (let c = 0; c < 3; c++)
        out.data[o + c] = Math.max(0, Math.min(255, Math.round(rgb[c] * grid + (options.brightness ?? 0))));
    }
  return encodeJpeg(out, options.quality ?? 90);
}

/** Two photos of the same person: a portrait, and the same face captured again (wider, brighter, JPEG 60). */
export async function samePersonPhotos(face: SampleFace = SAMPLE_FACES.s1Blonde): Promise<[Buffer, Buffer]> {
  return [await faceCrop(face), await faceCrop(face, { margin: 1.1, width: 360, brightness: 25, quality: 60 })];
}

/** Portraits of two different people (two faces of the same group photo). */
export async function differentPeoplePhotos(): Promise<[Buffer, Buffer]> {
  return [await faceCrop(SAMPLE_FACES.s1Blonde), await faceCrop(SAMPLE_FACES.s1Dark)];
}

/** A portrait re-captured from a black-and-white print shown on a screen (fails passive liveness). */
export function recapturedFacePhoto(face: SampleFace = SAMPLE_FACES.s1Blonde): Promise<Buffer> {
  return faceCrop(face, { grayscale: true, screenGrid: true });
}
