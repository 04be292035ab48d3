// Testing helpers for the validations service's tests: rendered identity documents with a valid or broken
// MRZ, and face photos from the face-api package's samples. The pixel work runs on a worker thread
// (renderer.worker.ts), so every renderer here is async and returns plain Buffers (PNG or JPEG bytes).
//
//   const card = await renderIdCard();                                // valid TD1, front + reverse PNG
//   const bad = await renderPassport({ corruptCheckDigit: 'birth_date' });
//   const other = mismatchedNameExpectation(card.person);             // account data with another name
//   const [selfie, again] = await samePersonPhotos();

import path from 'node:path';

import { workerScript } from '@kyc/platform';

import { WorkerClient } from '../../../src/engines/worker/worker-client';
import type { RenderedIdCard, RenderedPassport, RenderOptions } from './document-images';
import type { CropOptions, SampleFace } from './face-samples';
import type { RendererCall } from './renderer.worker';

export type { CorruptCheckDigit, RenderedIdCard, RenderedPassport, RenderOptions, TestPerson } from './document-images';
export { expectedOf, mismatchedNameExpectation, TEST_PERSON } from './document-images';
export { SAMPLE_FACES, type SampleFace, sampleImage, type SampleNumber } from './face-samples';
export { td1Lines, td3Lines } from './mrz-compose';

/** The validations app's folder: the renderer's thread runs its built script, or its sources compiled with the engines'. */
const APP_DIR = path.resolve(__dirname, '../../..');
let client: Promise<WorkerClient<RendererCall, unknown>> | undefined;

async function call<T>(request: RendererCall): Promise<T> {
  client ??= workerScript(APP_DIR, 'test/support/engines/renderer.worker', 'validations-test-renderer').then(
    (script) => new WorkerClient<RendererCall, unknown>(script),
  );
  return toBuffers(await (await client).request(request)) as T;
}

/** Structured clone turns Buffers into Uint8Arrays: turn them back. */
function toBuffers(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) return value.map(toBuffers);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'mrz' ? v : toBuffers(v)]));
  return value;
}

/** A TD1 identity card (front with the visual zone, reverse with the 3-line MRZ) of TEST_PERSON or options.person. */
export function renderIdCard(options?: RenderOptions): Promise<RenderedIdCard> {
  return call({ fn: 'renderIdCard', options });
}

/** A TD3 passport data page (visual zone and the 2-line MRZ). */
export function renderPassport(options?: RenderOptions): Promise<RenderedPassport> {
  return call({ fn: 'renderPassport', options });
}

/** A JPEG portrait cut around a face of a sample photo. */
export function faceCrop(face: SampleFace, options?: CropOptions): Promise<Buffer> {
  return call({ fn: 'faceCrop', face, options });
}

/** Two photos of one person (the second re-framed, brighter, JPEG quality 60): similarity ≥ 0.65. */
export function samePersonPhotos(face?: SampleFace): Promise<[Buffer, Buffer]> {
  return call({ fn: 'samePersonPhotos', face });
}

/** Portraits of two different people (from one group photo): similarity < 0.65. */
export function differentPeoplePhotos(): Promise<[Buffer, Buffer]> {
  return call({ fn: 'differentPeoplePhotos' });
}

/** A portrait re-captured from a gray print on a screen: fails passive liveness. */
export function recapturedFacePhoto(face?: SampleFace): Promise<Buffer> {
  return call({ fn: 'recapturedFacePhoto', face });
}

/** Stops the renderer thread (optional: it does not keep the process alive when idle). */
export async function closeTestRenderer(): Promise<void> {
  const c = client;
  client = undefined;
  await (await c)?.close();
}
