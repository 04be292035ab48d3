// Scenario: check PDFs. Goal: p50 under 150 ms. Two measurements over BENCH_PDF_COUNT (default
// 200) PDFs of one finished check: the renderer in this process (one language; a request renders
// es, en and pt), and end to end over HTTP (POST /v1/checks/{id}/pdf, then GET until 200: the
// durable job, the three renders, the bytea write and the download).
import { createRequire } from 'node:module';
import path from 'node:path';

import { repoRoot, StackError } from '../tools/stack/util.mjs';
import { http, num, percentile } from './kit.mjs';

const require = createRequire(import.meta.url);

export async function pdfGeneration(ctx) {
  const { info, log } = ctx;
  const count = num('BENCH_PDF_COUNT', 200);
  const base = info.services.checks;
  const headers = { 'Service-API-Key': info.api_key };
  const form = { ...headers, 'content-type': 'application/x-www-form-urlencoded' };
  const body = new URLSearchParams({
    country: 'CO',
    type: 'person',
    user_authorized: 'true',
    force_creation: 'true',
    national_id: '1000000002',
    first_name: 'Carlos Andrés',
    last_name: 'Rojas Pérez',
  });
  const created = await http(`${base}/v1/checks`, { method: 'POST', headers: form, body: body.toString() });
  const checkId = created.check.check_id;
  let check;
  for (let i = 0; i < 600; i++) {
    check = (await http(`${base}/v1/checks/${checkId}`, { headers })).check;
    if (check.status === 'completed' || check.status === 'error') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  log(`pdf: check ${checkId} is ${check.status}`);

  const { renderCheckPdf } = require(path.join(repoRoot, 'dist/apps/checks/src/pdf/check-pdf.renderer.js'));
  const inputs = Object.fromEntries(['national_id', 'first_name', 'last_name'].map((k) => [k, check[k]]));
  const content = {
    checkId,
    country: check.country,
    type: check.type,
    status: check.status,
    createdAt: new Date(check.creation_date),
    inputs,
    score: check.score,
    idScore: check.id_score,
    homonymScore: check.homonym_score,
    scores: check.scores ?? [],
    statuses: check.statuses ?? [],
    recordsFound: {},
  };
  const render = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await renderCheckPdf(content, ['es', 'en', 'pt'][i % 3], new Date());
    render.push(performance.now() - t);
  }

  const e2e = [];
  const post = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await http(`${base}/v1/checks/${checkId}/pdf`, { method: 'POST', headers });
    post.push(performance.now() - t);
    for (;;) {
      const res = await fetch(`${base}/v1/checks/${checkId}/pdf?lang=${['es', 'en', 'pt'][i % 3]}`, { headers });
      const bytes = Buffer.from(await res.arrayBuffer());
      if (res.status === 200) break;
      if (res.status !== 202) throw new StackError(`GET pdf answered ${res.status}: ${bytes.toString().slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 2));
    }
    e2e.push(performance.now() - t);
  }
  const summary = (values) => ({
    count: values.length,
    p50_ms: percentile(values, 50),
    p99_ms: percentile(values, 99),
    max_ms: percentile(values, 100),
  });
  const result = {
    goal: { p50_ms_below: 150 },
    renderer_one_language: summary(render),
    http_post: summary(post),
    http_post_until_get_200: summary(e2e),
  };
  result.goal.met = result.http_post_until_get_200.p50_ms < 150;
  log(
    `pdf renderer (one language): p50 ${result.renderer_one_language.p50_ms} ms, p99 ${result.renderer_one_language.p99_ms} ms over ${count}`,
  );
  log(`pdf POST alone (202): p50 ${result.http_post.p50_ms} ms, p99 ${result.http_post.p99_ms} ms`);
  log(
    `pdf POST -> GET 200 (three languages rendered): p50 ${result.http_post_until_get_200.p50_ms} ms, p99 ${result.http_post_until_get_200.p99_ms} ms over ${count}${result.goal.met ? '' : '  MISSED GOAL (p50 < 150 ms)'}`,
  );
  return { result };
}
