// The face engine's thread: TensorFlow.js on its WebAssembly backend (CPU) and face-api's models read from
// the @vladmandic/face-api package. One image at a time; the HTTP event loop never runs the model.
//
// Per photo (method and measurements: docs/services/validations-engines.md, "Face engine"):
// 1. detection on a copy scaled down to DETECT_SIDE px: Tiny Face Detector (input 320, the cheap one);
//    its face is kept when it finds one large face (a portrait); otherwise SSD MobileNet v1 (512);
// 2. for each face, largest first, a region around it cut from the photo at full resolution (up to
//    maxSide): 68-point landmarks on the detector's box; the box is then re-drawn from those landmarks the
//    way SSD MobileNet v1 frames a face (LANDMARK_BOX) and the landmarks read again on it, so the
//    descriptor sees the face aligned as with SSD's box (the similarities stay within ~0.03 of SSD's);
// 3. the 128-d descriptor (ResNet-34) of the face aligned on its eyes and mouth; passive liveness of the
//    largest face's box on the decoded photo.

import path from 'node:path';
import { workerData } from 'node:worker_threads';

import * as tf from '@tensorflow/tfjs';
import * as faceapi from '@vladmandic/face-api/dist/face-api.node-wasm.js';

import type { DetectedFace, FaceBox, FaceDescription } from '../engine.ports';
import { createRaster, decodeImage, type Raster, shrinkRaster } from '../image/raster';
import { serve } from '../worker/worker-host';
import { passiveLiveness } from './passive-liveness';

export interface FaceWorkerData {
  modelPath?: string;
  minConfidence?: number;
  maxFaces?: number;
  /** Larger photos are scaled down to this longer side before the landmarks and the descriptor (default 1920); boxes are reported in the original's pixels. */
  maxSide?: number;
  /** Tiny Face Detector's input size (multiple of 32; default TINY_INPUT). */
  tinyInputSize?: number;
}

const options = (workerData ?? {}) as FaceWorkerData;

/** Longer side of the copy the detector reads (Tiny Face Detector resizes its input to TINY_INPUT px). */
const DETECT_SIDE = 640;
/**
 * Tiny Face Detector's input: on a portrait 320 px costs a third less than 416 and the descriptors (computed on
 * the landmark-framed box, not the detector's) keep every match and non-match of the tests. Photos with several
 * faces go to SSD (PORTRAIT_SHARE): at 320 Tiny's boxes on group photos gave a false match SSD does not give.
 */
const TINY_INPUT = 320;
/**
 * Tiny Face Detector's face is kept when it finds exactly one face, at least this share of the picture's
 * shorter side (a selfie, a portrait, a document's photo); otherwise (no face, small ones, or several: a group
 * photo, where it misses faces SSD finds) SSD MobileNet v1 detects instead.
 */
const PORTRAIT_SHARE = 0.2;
/**
 * SSD MobileNet v1's box from the 68 landmarks: with s the mean eye-to-mouth distance and c the centre of
 * the two eyes' and the mouth's centres, the box is centred at c + (a·s, b·s), w·s wide and h·s high.
 * Medians over the 22 faces SSD finds in face-api's demo/sample1..6.jpg.
 */
const LANDMARK_BOX = { a: 0.107, b: -0.102, w: 1.784, h: 2.483 };
/** Context cut around a detected box on each side, as a fraction of its size (room for the re-drawn box and the alignment). */
const REGION_MARGIN = 1;

async function init(): Promise<void> {
  // The wasm binaries ship in @tensorflow/tfjs-backend-wasm's dist/ and are read from there.
  await import('@tensorflow/tfjs-backend-wasm');
  await tf.setBackend('wasm');
  await tf.ready();
  const dir =
    options.modelPath ?? path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
  await faceapi.nets.tinyFaceDetector.loadFromDisk(dir);
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(dir);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(dir);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(dir);
  // Every net once on a blank picture: the backend prepares its kernels now, not on the first photo.
  // A failure here only means the first photo pays for it.
  const blank = createRaster(64, 64, [128, 128, 128]);
  await describeRaster(blank).catch(() => undefined);
  await describeFace(blank, { x: 16, y: 16, width: 32, height: 32 }, true).catch(() => undefined);
}

function tensorOf(raster: Raster): tf.Tensor3D {
  const rgb = new Int32Array(raster.width * raster.height * 3);
  for (let p = 0, i = 0; i < raster.data.length; i += 4, p += 3) {
    rgb[p] = raster.data[i];
    rgb[p + 1] = raster.data[i + 1];
    rgb[p + 2] = raster.data[i + 2];
  }
  return tf.tensor3d(rgb, [raster.height, raster.width, 3], 'int32');
}

/** A rectangle of an RGBA raster (clipped to it). */
function cropRaster(
  r: Raster,
  x: number,
  y: number,
  width: number,
  height: number,
): { raster: Raster; x: number; y: number } {
  const x0 = Math.max(0, Math.floor(x));
  const y0 = Math.max(0, Math.floor(y));
  const w = Math.max(1, Math.min(r.width, Math.ceil(x + width)) - x0);
  const h = Math.max(1, Math.min(r.height, Math.ceil(y + height)) - y0);
  const data = new Uint8Array(w * h * 4);
  for (let row = 0; row < h; row++)
    data.set(r.data.subarray(((y0 + row) * r.width + x0) * 4, ((y0 + row) * r.width + x0 + w) * 4), row * w * 4);
  return { raster: { width: w, height: h, data }, x: x0, y: y0 };
}

/** The same tensor, typed as face-api's bundled copy of tfjs's types. */
const asFaceApiTensor = (t: tf.Tensor3D) => t as unknown as Parameters<typeof faceapi.extractFaceTensors>[0];

const centre = (points: faceapi.Point[]) => ({
  x: points.reduce((s, p) => s + p.x, 0) / points.length,
  y: points.reduce((s, p) => s + p.y, 0) / points.length,
});

/** SSD MobileNet v1's framing of the face whose landmarks these are (LANDMARK_BOX). */
function boxFromLandmarks(lm: faceapi.FaceLandmarks68): { x: number; y: number; width: number; height: number } {
  const [le, re, m] = [centre(lm.getLeftEye()), centre(lm.getRightEye()), centre(lm.getMouth())];
  const s = (Math.hypot(m.x - le.x, m.y - le.y) + Math.hypot(m.x - re.x, m.y - re.y)) / 2;
  const cx = (le.x + re.x + m.x) / 3 + LANDMARK_BOX.a * s;
  const cy = (le.y + re.y + m.y) / 3 + LANDMARK_BOX.b * s;
  const width = LANDMARK_BOX.w * s;
  const height = LANDMARK_BOX.h * s;
  return { x: cx - width / 2, y: cy - height / 2, width, height };
}

async function landmarksOn(image: tf.Tensor3D, box: faceapi.Rect): Promise<faceapi.FaceLandmarks68 | undefined> {
  const [width, height] = [image.shape[1], image.shape[0]];
  const clipped = box.clipAtImageBorders(width, height);
  if (clipped.width < 2 || clipped.height < 2) return undefined;
  const [face] = await faceapi.extractFaceTensors(asFaceApiTensor(image), [clipped]);
  try {
    const lm = (await faceapi.nets.faceLandmark68Net.detectLandmarks(face)) as faceapi.FaceLandmarks68;
    return lm.shiftBy<faceapi.FaceLandmarks68>(clipped.x, clipped.y);
  } finally {
    face.dispose();
  }
}

/** Landmarks, SSD-framed box and descriptor of one detected face, in `full`'s pixels. */
async function describeFace(
  full: Raster,
  detected: FaceBox,
  reframe: boolean,
): Promise<{ box: FaceBox; descriptor: Float32Array } | undefined> {
  const region = cropRaster(
    full,
    detected.x - detected.width * REGION_MARGIN,
    detected.y - detected.height * REGION_MARGIN,
    detected.width * (1 + 2 * REGION_MARGIN),
    detected.height * (1 + 2 * REGION_MARGIN),
  );
  const image = tensorOf(region.raster);
  try {
    const first = await landmarksOn(
      image,
      new faceapi.Rect(detected.x - region.x, detected.y - region.y, detected.width, detected.height),
    );
    if (!first) return undefined;
    const framed = reframe
      ? boxFromLandmarks(first)
      : { x: detected.x - region.x, y: detected.y - region.y, width: detected.width, height: detected.height };
    const landmarks = reframe
      ? ((await landmarksOn(image, new faceapi.Rect(framed.x, framed.y, framed.width, framed.height))) ?? first)
      : first;
    const [aligned] = await faceapi.extractFaceTensors(asFaceApiTensor(image), [
      landmarks.align(null, { useDlibAlignment: true }),
    ]);
    if (!aligned) return undefined; // the landmarks give no face to align
    let descriptor: Float32Array;
    try {
      descriptor = (await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(aligned)) as Float32Array;
    } finally {
      aligned.dispose();
    }
    const x = Math.max(0, framed.x);
    const y = Math.max(0, framed.y);
    return {
      box: {
        x: x + region.x,
        y: y + region.y,
        width: Math.min(region.raster.width, framed.x + framed.width) - x,
        height: Math.min(region.raster.height, framed.y + framed.height) - y,
      },
      descriptor,
    };
  } finally {
    image.dispose();
  }
}

interface Detection {
  box: FaceBox;
  score: number;
  /** Tiny Face Detector's box: re-framed from the landmarks before the descriptor. */
  reframe: boolean;
}

/** Faces of the detection copy, largest first, boxes in the copy's pixels: Tiny Face Detector for a portrait, else SSD MobileNet v1. */
async function detect(small: Raster): Promise<Detection[]> {
  const minConfidence = options.minConfidence ?? 0.5;
  const image = tensorOf(small);
  const toDetections = (found: faceapi.FaceDetection[], reframe: boolean) =>
    found
      .map((d) => ({
        box: { x: d.box.x, y: d.box.y, width: d.box.width, height: d.box.height },
        score: d.score,
        reframe,
      }))
      .sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
  try {
    const input = image as unknown as faceapi.TNetInput;
    const tiny = toDetections(
      await faceapi.nets.tinyFaceDetector.locateFaces(
        input,
        new faceapi.TinyFaceDetectorOptions({
          inputSize: options.tinyInputSize ?? TINY_INPUT,
          scoreThreshold: minConfidence,
        }),
      ),
      true,
    );
    const shorter = Math.min(small.width, small.height);
    if (tiny.length === 1 && Math.min(tiny[0].box.width, tiny[0].box.height) >= PORTRAIT_SHARE * shorter) return tiny;
    const ssd = toDetections(
      await faceapi.nets.ssdMobilenetv1.locateFaces(
        input,
        new faceapi.SsdMobilenetv1Options({ minConfidence, maxResults: options.maxFaces ?? 10 }),
      ),
      false,
    );
    return ssd.length ? ssd : tiny;
  } finally {
    image.dispose();
  }
}

async function describe(image: Uint8Array): Promise<FaceDescription & { ms: number }> {
  const started = performance.now();
  const original = await decodeImage(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  return { ...(await describeRaster(original)), ms: Math.round(performance.now() - started) };
}

async function describeRaster(original: Raster): Promise<FaceDescription> {
  const { raster: full, factor } = shrinkRaster(original, options.maxSide ?? 1920);
  const { raster: small, factor: detectFactor } = shrinkRaster(full, DETECT_SIDE);
  const detections = (await detect(small)).slice(0, options.maxFaces ?? 10);
  const faces: DetectedFace[] = [];
  for (const d of detections) {
    const scaled = {
      x: d.box.x * detectFactor,
      y: d.box.y * detectFactor,
      width: d.box.width * detectFactor,
      height: d.box.height * detectFactor,
    };
    const face = await describeFace(full, scaled, d.reframe);
    if (!face) continue;
    faces.push({
      box: {
        x: Math.round(face.box.x * factor),
        y: Math.round(face.box.y * factor),
        width: Math.round(face.box.width * factor),
        height: Math.round(face.box.height * factor),
      },
      score: Math.round(d.score * 1000) / 1000,
      descriptor: Array.from(face.descriptor),
    });
  }
  faces.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
  const liveness = faces.length ? passiveLiveness(original, faces[0].box) : undefined;
  return {
    faces,
    ...(liveness ? { liveness: { score: liveness.score, passed: liveness.passed, method: liveness.method } } : {}),
  };
}

serve<{ image: Uint8Array }, FaceDescription & { ms: number }>(init, async ({ image }) => ({
  result: await describe(image),
}));
