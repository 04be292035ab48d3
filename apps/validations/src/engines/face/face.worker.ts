// The face engine's thread: TensorFlow.js on its WebAssembly backend (CPU) and face-api's models
// (SSD MobileNet v1 detector, 68-point landmarks, ResNet-34 128-d recognition) read from the
// @vladmandic/face-api package. One image at a time; the HTTP event loop never runs the model.

import path from 'node:path';
import { workerData } from 'node:worker_threads';

import * as tf from '@tensorflow/tfjs';
import * as faceapi from '@vladmandic/face-api/dist/face-api.node-wasm.js';

import type { DetectedFace, FaceDescription } from '../engine.ports';
import { decodeImage, shrinkRaster } from '../image/raster';
import { serve } from '../worker/worker-host';
import { passiveLiveness } from './passive-liveness';

export interface FaceWorkerData {
  modelPath?: string;
  minConfidence?: number;
  maxFaces?: number;
  /** Larger photos are scaled down to this longer side before detection (default 1920); boxes are reported in the original's pixels. */
  maxSide?: number;
}

const options = (workerData ?? {}) as FaceWorkerData;

async function init(): Promise<void> {
  // The wasm binaries ship in @tensorflow/tfjs-backend-wasm's dist/ and are read from there.
  await import('@tensorflow/tfjs-backend-wasm');
  await tf.setBackend('wasm');
  await tf.ready();
  const dir =
    options.modelPath ?? path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(dir);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(dir);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(dir);
}

async function describe(image: Uint8Array): Promise<FaceDescription & { ms: number }> {
  const started = performance.now();
  const original = decodeImage(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  const { raster, factor } = shrinkRaster(original, options.maxSide ?? 1920);
  const rgb = new Int32Array(raster.width * raster.height * 3);
  for (let p = 0, i = 0; i < raster.data.length; i += 4, p += 3) {
    rgb[p] = raster.data[i];
    rgb[p + 1] = raster.data[i + 1];
    rgb[p + 2] = raster.data[i + 2];
  }
  const tensor = tf.tensor3d(rgb, [raster.height, raster.width, 3], 'int32');
  try {
    const found = await faceapi
      .detectAllFaces(
        tensor as unknown as faceapi.TNetInput,
        new faceapi.SsdMobilenetv1Options({
          minConfidence: options.minConfidence ?? 0.5,
          maxResults: options.maxFaces ?? 10,
        }),
      )
      .withFaceLandmarks()
      .withFaceDescriptors();
    const faces: DetectedFace[] = found
      .map((f) => ({
        box: {
          x: Math.round(f.detection.box.x * factor),
          y: Math.round(f.detection.box.y * factor),
          width: Math.round(f.detection.box.width * factor),
          height: Math.round(f.detection.box.height * factor),
        },
        score: Math.round(f.detection.score * 1000) / 1000,
        descriptor: Array.from(f.descriptor),
      }))
      .sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
    const liveness = faces.length ? passiveLiveness(original, faces[0].box) : undefined;
    return {
      faces,
      ...(liveness ? { liveness: { score: liveness.score, passed: liveness.passed, method: liveness.method } } : {}),
      ms: Math.round(performance.now() - started),
    };
  } finally {
    tensor.dispose();
  }
}

serve<{ image: Uint8Array }, FaceDescription & { ms: number }>(init, async ({ image }) => ({
  result: await describe(image),
}));
