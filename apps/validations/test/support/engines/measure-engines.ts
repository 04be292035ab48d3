// Measures the engines on this machine and prints the figures of docs/services/validations-engines.md:
//   node tools/build.mjs && node dist/apps/validations/test/support/engines/measure-engines.js
// Face: every face of face-api's demo/sample1..6.jpg, describe time per photo, distances between the faces
// of one photo (different people) and across photos; event-loop delay while the model runs.
// Document: OCR time per rendered side and engine time per validation.

import { monitorEventLoopDelay } from 'node:perf_hooks';

import { OcrDocumentEngine } from '../../../src/engines/document/document.engine';
import { TesseractRecognizer } from '../../../src/engines/document/ocr';
import { WorkerDocumentImageAnalyzer } from '../../../src/engines/document/worker-analyzer';
import type { DocumentEngineInput } from '../../../src/engines/engine.ports';
import { WorkerFaceEngine } from '../../../src/engines/face/face.engine';
import { distanceToSimilarity, euclideanDistance } from '../../../src/engines/face/similarity';
import { SandboxGovernmentRegistry } from '../../../src/engines/government/sandbox-government-registry';
import { renderIdCard, renderPassport } from './document-images';
import { differentPeoplePhotos, samePersonPhotos, sampleImage, type SampleNumber } from './face-samples';

const THRESHOLD = 0.65;
const ms = (start: number) => Math.round(performance.now() - start);

async function measureFaces(): Promise<void> {
  const engine = new WorkerFaceEngine();
  let t = performance.now();
  await engine.warmUp();
  console.log(`face: worker start + models loaded: ${ms(t)} ms`);
  const faces: Array<{ id: string; photo: number; descriptor: number[] }> = [];
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  for (let n = 1; n <= 6; n++) {
    t = performance.now();
    const d = await engine.describe(sampleImage(n as SampleNumber));
    console.log(
      `face: sample${n}.jpg: ${d.faces.length} faces in ${ms(t)} ms; liveness of the largest ${JSON.stringify(d.liveness)}`,
    );
    d.faces.forEach((f, i) => faces.push({ id: `s${n}f${i}`, photo: n, descriptor: f.descriptor }));
  }
  loop.disable();
  console.log(
    `face: event-loop delay while describing: p99 ${Math.round(loop.percentile(99) / 1e6)} ms, max ${Math.round(loop.max / 1e6)} ms`,
  );

  const within: Array<[string, number]> = [];
  const across: Array<[string, number]> = [];
  for (let i = 0; i < faces.length; i++)
    for (let j = i + 1; j < faces.length; j++) {
      const d = euclideanDistance(faces[i].descriptor, faces[j].descriptor);
      (faces[i].photo === faces[j].photo ? within : across).push([`${faces[i].id}-${faces[j].id}`, d]);
    }
  const matches = (list: Array<[string, number]>) => list.filter(([, d]) => distanceToSimilarity(d) >= THRESHOLD);
  within.sort((a, b) => a[1] - b[1]);
  across.sort((a, b) => a[1] - b[1]);
  const fmt = (list: Array<[string, number]>) =>
    list.map(([k, d]) => `${k} d=${d.toFixed(3)} s=${distanceToSimilarity(d).toFixed(3)}`).join(', ');
  console.log(
    `face: ${faces.length} faces; ${within.length} same-photo pairs (different people), ${across.length} cross-photo pairs`,
  );
  console.log(
    `face: same-photo pairs matching at ${THRESHOLD} (false matches): ${matches(within).length}; closest: ${fmt(within.slice(0, 4))}`,
  );
  console.log(
    `face: cross-photo pairs matching at ${THRESHOLD}: ${fmt(matches(across))}; next closest: ${fmt(across.slice(matches(across).length, matches(across).length + 4))}`,
  );

  const [a, b] = await samePersonPhotos();
  const [, c] = await differentPeoplePhotos();
  const times: number[] = [];
  const describe = async (img: Buffer) => {
    const s = performance.now();
    const r = await engine.describe(img);
    times.push(ms(s));
    return r.faces[0].descriptor;
  };
  const [da, db, dc] = [await describe(a), await describe(b), await describe(c)];
  console.log(`face: portraits (400 px) described in ${times.join(', ')} ms`);
  console.log(
    `face: same person re-captured: similarity ${engine.similarity(da, db)}; different people: ${engine.similarity(da, dc)}`,
  );
  await engine.close();
}

async function measureDocuments(): Promise<void> {
  const ocr = new TesseractRecognizer();
  const analyzer = new WorkerDocumentImageAnalyzer();
  const engine = new OcrDocumentEngine({ analyzer, ocr, registry: new SandboxGovernmentRegistry({ latencyMs: 0 }) });
  const card = renderIdCard();
  const passport = renderPassport();
  let t = performance.now();
  await ocr.readMrz((await analyzer.analyze(card.reverse)).mrzBandPgm);
  console.log(`document: first OCR (tesseract worker start, model load, 1 read): ${ms(t)} ms`);
  for (const [name, image] of [
    ['TD1 reverse 1000x630', card.reverse],
    ['TD3 page 1250x880', passport.image],
  ] as const) {
    const analysis = await analyzer.analyze(image);
    for (let i = 0; i < 3; i++) {
      t = performance.now();
      await ocr.readMrz(analysis.mrzBandPgm);
      console.log(`document: MRZ OCR ${name}: ${ms(t)} ms`);
    }
  }
  const checks = {
    manipulation: true,
    photoOfPhoto: true,
    photocopy: true,
    dataConsistency: true,
    governmentDatabase: true,
  };
  const input: DocumentEngineInput = {
    country: 'CO',
    documentType: 'national-id',
    front: card.front,
    reverse: card.reverse,
    expected: card.expected,
    checks,
  };
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    const r = await engine.validate(input);
    console.log(`document: TD1 validation, all checks: ${ms(t)} ms (${r.status})`);
  }
  t = performance.now();
  const r = await engine.validate({ ...input, checks: { ...checks, manipulation: false } });
  console.log(`document: TD1 validation without the visual-zone OCR: ${ms(t)} ms (${r.status})`);
  await Promise.all([ocr.close(), analyzer.close()]);
}

if (require.main === module) {
  measureDocuments()
    .then(measureFaces)
    .catch((err) => {
      console.error(err);
      process.exitCode = 1;
    });
}
