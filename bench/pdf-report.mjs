// Scenario `pdf-report`: render time of the full check report (apps/checks/src/pdf) for a check
// with BENCH_PDF_FINDINGS (default 100) sandbox findings spread over every dataset, in each of
// es/en/pt, BENCH_PDF_REPORT_RUNS times (default 10). Goal: under 2 s per report (p99). Runs in this
// process on the built renderer (node tools/build.mjs first); it starts no stack.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function pdfReportScenario(ctx) {
  const log = ctx?.log ?? console.log;
  const findings = Number(process.env.BENCH_PDF_FINDINGS ?? 100);
  const runs = Number(process.env.BENCH_PDF_REPORT_RUNS ?? 10);
  const dist = (p) => require(path.join(repoRoot, 'dist/apps/checks/src', p));
  const { renderCheckPdf } = dist('pdf/check-pdf.renderer.js');
  const { sandboxFinding } = dist('collectors/sandbox/sandbox-records.js');
  const { DATA_SETS } = require(path.join(repoRoot, 'dist/libs/contracts/src/index.js'));
  const records = Array.from({ length: findings }, (_, i) => {
    const ds = DATA_SETS[i % DATA_SETS.length];
    const rec = sandboxFinding(ds, 'medium', `bench:${i}`, { name: 'Laura Sandbox Ortiz', plate: 'KLM123' });
    return {
      data_set: ds,
      found_by: i % 3 ? 'id' : 'name',
      severity: 'medium',
      kind: rec.kind,
      fields: rec.fields,
      database_name: `Sandbox ${ds}`,
    };
  });
  const content = {
    checkId: 'CHKbench0000000000000000000000000000',
    country: 'CO',
    type: 'person',
    status: 'completed',
    createdAt: new Date(),
    inputs: { national_id: '1000000042', first_name: 'Laura', last_name: 'Sandbox Ortiz' },
    score: 0.3,
    idScore: 0.4,
    homonymScore: 0.8,
    scores: DATA_SETS.map((ds) => ({ data_set: ds, result: 'found', score: 0.5, severity: 'medium' })),
    statuses: DATA_SETS.map((ds) => ({
      database_id: `sandbox-${ds}`,
      database_name: `Sandbox ${ds}`,
      data_set: ds,
      status: 'completed',
    })),
    recordsFound: {},
    records,
  };
  const times = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    for (const lang of ['es', 'en', 'pt']) {
      const t = performance.now();
      bytes = (await renderCheckPdf(content, lang, new Date())).length;
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  const q = (p) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))] * 10) / 10;
  const result = {
    findings,
    renders: times.length,
    p50_ms: q(0.5),
    p99_ms: q(0.99),
    max_ms: q(1),
    bytes,
    goal: { ms_below: 2000 },
  };
  result.goal.met = result.max_ms < 2000;
  log(
    `pdf report with ${findings} findings: p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms, max ${result.max_ms} ms over ${times.length} renders (${bytes} bytes)${result.goal.met ? '' : '  MISSED GOAL (< 2 s)'}`,
  );
  return { result };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await pdfReportScenario();
