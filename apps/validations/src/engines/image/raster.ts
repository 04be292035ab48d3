// Decoded images as plain RGBA rasters. Uploads are decoded by libvips through sharp (decodeImage; native
// libjpeg-turbo and libspng), asynchronously, awaited on the engines' worker threads. The rest is plain JavaScript
// over the pixels: grey, crops, shrinking, binarizing, and the encoders (PGM for the OCR; PNG with pngjs and
// JPEG with jpeg-js for the tests' images and the fake camera, never for decoding an upload).

import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import sharp from 'sharp';

import { budgetPixels, readImageHeader } from './image-header';

// One libvips thread per decode (the engines already run several decodes side by side on their own threads,
// on a small machine) and no operation cache: an upload's pixels are not kept after its decode.
sharp.concurrency(1);
sharp.cache(false);

/** An RGBA image, 8 bits per channel, rows top to bottom. */
export interface Raster {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A single-channel image (luma 0..255). */
export interface GrayRaster {
  width: number;
  height: number;
  data: Uint8Array;
}

export type ImageFormat = 'jpeg' | 'png';

/** Largest image decoded (megapixels, twice above 8 bits per channel); larger ones are refused before decoding. */
export const MAX_IMAGE_MEGAPIXELS = 40;

export class UnsupportedImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedImageError';
  }
}

/** The format of an image by its magic bytes, or undefined when it is neither JPEG nor PNG. */
export function imageFormat(bytes: Buffer): ImageFormat | undefined {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length > 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  return undefined;
}

/**
 * Decodes a JPEG or PNG upload with libvips (sharp) to RGBA, 8 bits per channel, pixels as stored (no Exif
 * rotation, as before); throws UnsupportedImageError for anything else, a corrupt file (libvips' warnings
 * count: failOn 'warning') or one above the pixel budget. The header is checked here before libvips sees
 * the file, and libvips' own limitInputPixels holds the same bound.
 */
export async function decodeImage(bytes: Buffer): Promise<Raster> {
  const format = imageFormat(bytes);
  if (!format) throw new UnsupportedImageError('the image is neither JPEG nor PNG');
  try {
    // The header, before any decoder allocates: 40 MP of 16-bit PNG in 300 KB took a decoder to 961 MiB.
    if (budgetPixels(readImageHeader(bytes)) > MAX_IMAGE_MEGAPIXELS * 1e6)
      throw new Error(`more than ${MAX_IMAGE_MEGAPIXELS} megapixels`);
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_MEGAPIXELS * 1e6, failOn: 'warning' })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) throw new Error(`${info.channels} channels after conversion to RGBA`);
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } catch (err) {
    throw new UnsupportedImageError(`the image could not be decoded: ${(err as Error).message}`);
  }
}

export function encodePng(raster: Raster | GrayRaster): Buffer {
  const rgba = raster.data.length === raster.width * raster.height ? grayToRgba(raster) : raster;
  const png = new PNG({ width: rgba.width, height: rgba.height });
  png.data = Buffer.from(rgba.data.buffer, rgba.data.byteOffset, rgba.data.byteLength);
  // filterType 0: pngjs's adaptive filter choice is ~100x slower under jest's module sandbox.
  return PNG.sync.write(png, { filterType: 0 });
}

/**
 * A grayscale image as binary PGM (P5): a 15-byte header and the pixels as they are. For the OCR, which
 * reads it without any inflating (Leptonica), where a PNG costs a deflate here and an inflate there.
 */
export function encodePgm(gray: GrayRaster): Buffer {
  const header = Buffer.from(`P5\n${gray.width} ${gray.height}\n255\n`, 'ascii');
  // Its own ArrayBuffer (never Node's shared pool), so a worker thread can transfer it instead of copying it.
  const out = Buffer.from(new ArrayBuffer(header.length + gray.width * gray.height));
  header.copy(out);
  out.set(gray.data.subarray(0, gray.width * gray.height), header.length);
  return out;
}

export function encodeJpeg(raster: Raster, quality = 90, comments?: string[]): Buffer {
  return jpeg.encode({ width: raster.width, height: raster.height, data: raster.data, comments }, quality).data;
}

export function createRaster(width: number, height: number, rgb: [number, number, number] = [255, 255, 255]): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = rgb[0];
    data[i + 1] = rgb[1];
    data[i + 2] = rgb[2];
    data[i + 3] = 255;
  }
  return { width, height, data };
}

/** Rec. 601 luma. */
export function toGray(raster: Raster): GrayRaster {
  const out = new Uint8Array(raster.width * raster.height);
  const d = raster.data;
  for (let i = 0, p = 0; p < out.length; i += 4, p++) out[p] = (d[i] * 299 + d[i + 1] * 587 + d[i + 2] * 114) / 1000;
  return { width: raster.width, height: raster.height, data: out };
}

function grayToRgba(gray: GrayRaster): Raster {
  const data = new Uint8Array(gray.width * gray.height * 4);
  for (let p = 0, i = 0; p < gray.data.length; p++, i += 4) {
    data[i] = data[i + 1] = data[i + 2] = gray.data[p];
    data[i + 3] = 255;
  }
  return { width: gray.width, height: gray.height, data };
}

export function cropGray(gray: GrayRaster, x: number, y: number, width: number, height: number): GrayRaster {
  const x0 = Math.max(0, Math.floor(x));
  const y0 = Math.max(0, Math.floor(y));
  const w = Math.min(gray.width - x0, Math.floor(width));
  const h = Math.min(gray.height - y0, Math.floor(height));
  const out = new Uint8Array(w * h);
  for (let row = 0; row < h; row++)
    out.set(gray.data.subarray((y0 + row) * gray.width + x0, (y0 + row) * gray.width + x0 + w), row * w);
  return { width: w, height: h, data: out };
}

/** Area-average downscale of a grayscale image so that its width is at most maxWidth. */
export function shrinkGray(gray: GrayRaster, maxWidth: number): GrayRaster {
  if (gray.width <= maxWidth) return gray;
  const f = gray.width / maxWidth;
  const w = maxWidth;
  const h = Math.max(1, Math.round(gray.height / f));
  const out = new Uint8Array(w * h);
  // Each output column's source columns, computed once rather than once per row.
  const xs0 = new Int32Array(w);
  const xs1 = new Int32Array(w);
  for (let x = 0; x < w; x++) {
    xs0[x] = Math.floor(x * f);
    xs1[x] = Math.min(gray.width, Math.max(xs0[x] + 1, Math.floor((x + 1) * f)));
  }
  const src = gray.data;
  const sw = gray.width;
  for (let y = 0; y < h; y++) {
    const sy0 = Math.floor(y * f);
    const sy1 = Math.min(gray.height, Math.max(sy0 + 1, Math.floor((y + 1) * f)));
    for (let x = 0; x < w; x++) {
      const sx0 = xs0[x];
      const sx1 = xs1[x];
      let sum = 0;
      for (let sy = sy0; sy < sy1; sy++) {
        const row = sy * sw;
        for (let sx = sx0; sx < sx1; sx++) sum += src[row + sx];
      }
      out[y * w + x] = sum / ((sy1 - sy0) * (sx1 - sx0));
    }
  }
  return { width: w, height: h, data: out };
}

/** Otsu's threshold of a grayscale image. */
export function otsuThreshold(gray: GrayRaster): number {
  const hist = new Float64Array(256);
  const data = gray.data;
  for (let i = 0; i < data.length; i++) hist[data[i]]++;
  const total = data.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i];
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 127;
  for (let t = 0; t < 256; t++) {
    wB += hist[t];
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t];
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/** Black text on white: pixels at or below the threshold become 0, the rest 255. */
export function binarize(gray: GrayRaster, threshold = otsuThreshold(gray)): GrayRaster {
  const out = new Uint8Array(gray.data.length);
  const data = gray.data;
  for (let i = 0; i < out.length; i++) out[i] = data[i] <= threshold ? 0 : 255;
  return { width: gray.width, height: gray.height, data: out };
}

/** Area-average downscale of an RGBA image so that its longer side is at most maxSide (returns the scale factor applied). */
export function shrinkRaster(raster: Raster, maxSide: number): { raster: Raster; factor: number } {
  const longer = Math.max(raster.width, raster.height);
  if (longer <= maxSide) return { raster, factor: 1 };
  const f = longer / maxSide;
  const w = Math.max(1, Math.round(raster.width / f));
  const h = Math.max(1, Math.round(raster.height / f));
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    const sy0 = Math.floor(y * f);
    const sy1 = Math.min(raster.height, Math.max(sy0 + 1, Math.floor((y + 1) * f)));
    for (let x = 0; x < w; x++) {
      const sx0 = Math.floor(x * f);
      const sx1 = Math.min(raster.width, Math.max(sx0 + 1, Math.floor((x + 1) * f)));
      const sums = [0, 0, 0];
      for (let sy = sy0; sy < sy1; sy++)
        for (let sx = sx0; sx < sx1; sx++) {
          const i = (sy * raster.width + sx) * 4;
          sums[0] += raster.data[i];
          sums[1] += raster.data[i + 1];
          sums[2] += raster.data[i + 2];
        }
      const n = (sy1 - sy0) * (sx1 - sx0);
      const o = (y * w + x) * 4;
      out[o] = sums[0] / n;
      out[o + 1] = sums[1] / n;
      out[o + 2] = sums[2] / n;
      out[o + 3] = 255;
    }
  }
  return { raster: { width: w, height: h, data: out }, factor: f };
}
