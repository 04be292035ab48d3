// Renders the sample check report shown in docs/services/checks.md ("PDF reports") and writes its
// page 1 to docs/images/check-report-page1.png (small: 60 dpi). The check is the documented sandbox
// identity CO national_id 1000000002 asked of every CO person database of the sandbox (each by its
// own search), rendered in Spanish. Needs the build (node tools/build.mjs) and pdftoppm
// (poppler-utils). Usage: node tools/docs/check-report-sample.mjs [es|en|pt] [out.pdf]
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { root } from './reference.mjs';

const require = createRequire(import.meta.url);
const dist = (p) => require(path.join(root, 'dist/apps/checks/src', p));
const { renderCheckPdf } = dist('pdf/check-pdf.renderer.js');
const { sandboxAnswer } = dist('collectors/sandbox/sandbox-search.js');
const { SANDBOX_DATABASES } = dist('collectors/sandbox/sandbox-databases.js');
const { SEVERITY_SCORES, maxSeverity } = dist('engine/scoring.js');

const lang = process.argv[2] ?? 'es';
const now = new Date('2031-03-10T12:00:00Z');
const inputs = { national_id: '1000000002', first_name: 'Carlos Andrés', last_name: 'Rojas Pérez' };
const records = [];
const statuses = [];
const recordsFound = {};
for (const spec of SANDBOX_DATABASES.filter((d) => d.country === 'CO' && d.types.includes('person'))) {
  if (spec.needsCredentials) continue;
  let found = 0;
  for (const search of spec.searches.filter((s) => !s.types || s.types.includes('person'))) {
    if (!search.inputs.every((i) => inputs[i])) continue;
    const answer = sandboxAnswer({ spec, search: search.by, searchInputs: search.inputs, inputs, region: null, now });
    for (const r of answer.records ?? []) records.push({ ...r, database_name: spec.name });
    found += answer.records?.length ?? 0;
  }
  recordsFound[spec.id] = found;
  statuses.push({ database_id: spec.id, database_name: spec.name, data_set: spec.dataSets[0], status: 'completed' });
}
const scoreOf = (list) => SEVERITY_SCORES[list.length ? maxSeverity(list.map((r) => r.severity)) : 'none'];
const dataSets = [...new Set(records.map((r) => r.data_set))];
const detail = (list) => ({
  result: list.length ? 'found' : 'not_found',
  severity: list.length ? maxSeverity(list.map((r) => r.severity)) : 'none',
  score: scoreOf(list),
});
const content = {
  checkId: 'CHK4c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f',
  country: 'CO',
  type: 'person',
  status: 'completed',
  createdAt: now,
  inputs,
  score: scoreOf(records),
  idScore: scoreOf(records.filter((r) => r.found_by === 'id')),
  homonymScore: scoreOf(records.filter((r) => r.found_by === 'name')),
  scores: dataSets.map((ds) => {
    const of = records.filter((r) => r.data_set === ds);
    return {
      data_set: ds,
      ...detail(of),
      by_id: detail(of.filter((r) => r.found_by === 'id')),
      by_name: detail(of.filter((r) => r.found_by === 'name')),
    };
  }),
  statuses,
  recordsFound,
  records,
};
const pdf = await renderCheckPdf(content, lang, new Date('2031-03-10T12:05:00Z'));
if (process.argv[3]) writeFileSync(process.argv[3], pdf);
const png = execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-'], { input: pdf });
const out = path.join(root, 'docs/images/check-report-page1.png');
writeFileSync(out, png);
console.log(`${records.length} records; page 1 written to ${path.relative(root, out)} (${png.length} bytes)`);
