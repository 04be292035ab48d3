// CPU time per item of the engines, the figure to compare before/after a change on a loaded machine
// (wall time varies with the other load; the CPU a describe or a validation takes much less):
//   node tools/build.mjs && node dist/apps/validations/test/support/engines/measure-cpu.js [N]
// process.cpuUsage() counts every thread of the process (the engines' worker threads, tesseract's) and
// nothing else runs here, so user+system CPU around one call is that call's CPU. Models are loaded and
// one warm-up call made first; then N calls (default 15), median and p90 printed. The images are the
// bench's (bench/validations.mjs): the re-captured 360 px portrait, and the rendered passport page as
// JPEG with the bench's default switches (every check but the government database).

import { OcrDocumentEngine } from '../../../src/engines/document/document.engine';
import { TesseractRecognizer } from '../../../src/engines/document/ocr';
import { WorkerDocumentImageAnalyzer } from '../../../src/engines/document/worker-analyzer';
import { WorkerFaceEngine } from '../../../src/engines/face/face.engine';
import { SandboxGovernmentRegistry } from '../../../src/engines/government/sandbox-government-registry';
import { renderPassport } from './document-images';
import { samePersonPhotos } from './face-samples';

const N = Number(process.argv[2] ?? 15);

async function cpuPerCall(label: string, call: () => Promise<unknown>): Promise<void> {
  await call();
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < N; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await call();
    const c = process.cpuUsage(c0);
    wall.push(performance.now() - t0);
    cpu.push((c.user + c.system) / 1000);
  }
  const at = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  console.log(
    `${label}: CPU median ${Math.round(at(cpu, 0.5))} ms, p90 ${Math.round(at(cpu, 0.9))} ms; wall median ${Math.round(at(wall, 0.5))} ms (N=${N})`,
  );
}

async function main(): Promise<void> {
  const which = process.argv[3] ?? 'all';
  if (which === 'all' || which === 'face') {
    const face = new WorkerFaceEngine();
    await face.warmUp();
    const [, photo] = await samePersonPhotos();
    await cpuPerCall('face describe (360 px portrait)', () => face.describe(photo));
    await face.close();
  }
  if (which === 'all' || which === 'passport') {
    const ocr = new TesseractRecognizer();
    const analyzer = new WorkerDocumentImageAnalyzer();
    const engine = new OcrDocumentEngine({ analyzer, ocr, registry: new SandboxGovernmentRegistry({ latencyMs: 0 }) });
    const passport = renderPassport({ encoding: 'jpeg' });
    const checks = {
      manipulation: true,
      photoOfPhoto: true,
      photocopy: true,
      dataConsistency: true,
      governmentDatabase: false,
    };
    let last: unknown;
    await cpuPerCall('passport validate (1250x880 JPEG, bench switches)', async () => {
      last = await engine.validate({
        country: 'ALL',
        documentType: 'passport',
        front: passport.image,
        expected: {},
        checks,
      });
    });
    const r = last as {
      status: string;
      declinedReason?: string;
      subvalidations: Array<{ name: string; status: string; details?: unknown }>;
    };
    console.log(
      `passport result: ${r.status} ${r.declinedReason ?? ''} ${JSON.stringify(r.subvalidations.map((s) => [s.name, s.status, s.details]))}`,
    );
    await Promise.all([ocr.close(), analyzer.close()]);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
