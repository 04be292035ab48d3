// Scenario `validations` of `npm run bench`: the validators suite's engines under load while its
// API keeps answering.
//
// (a) Face comparisons: a face enrolled from a portrait cut from @vladmandic/face-api's demo set, then
//     BENCH_VALIDATIONS_FACES face-recognition validations (default 40) created and their photos
//     uploaded, BENCH_VALIDATIONS_CONCURRENCY at a time (default 4). Reported: comparisons per
//     second (finished validations / wall time) and p50/p99 from the upload of a photo to its
//     validation's finished_date. Meanwhile autocannon keeps calling GET /v1/validations/{id}
//     (BENCH_CONNECTIONS connections): that GET's p50/p99 during the run (goal p99 < 50 ms).
// (b) Documents: BENCH_VALIDATIONS_DOCUMENTS passport validations (default 20), each with a
//     rendered passport page (valid MRZ; the engines' test renderer in dist/), same concurrency:
//     document validations per second and p50/p99 upload -> finished.
// Needs the engines in dist/ (npm run build); a part whose engine or fixtures are missing is
// skipped with a note.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import autocannon from 'autocannon';
import { repoRoot, StackError } from '../tools/stack/util.mjs';

const require = createRequire(import.meta.url);
const envNum = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const round = (n, d = 1) => (Number.isFinite(n) ? Number(n.toFixed(d)) : null);
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null;
};

async function call(base, key, method, pathname, body) {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: { 'Service-API-Key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => undefined);
  if (res.status >= 300) throw new StackError(`${method} ${pathname} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

const put = async (link, data) => {
  const res = await fetch(link, {
    method: 'PUT',
    headers: { 'content-type': 'text/plain' },
    body: data.toString('base64'),
  });
  if (res.status !== 200) throw new StackError(`upload answered ${res.status}: ${await res.text()}`);
};

async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new StackError(`${what} not done after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs `count` validations through create -> upload -> finished, `concurrency` at a time. */
async function runValidations({ base, key, count, concurrency, create, files }) {
  const latencies = [];
  const outcomes = {};
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      const v = await call(base, key, 'POST', '/v1/validations', create());
      const uploadedAt = Date.now();
      for (const [field, data] of Object.entries(files)) await put(v.instructions[field], data);
      const done = await waitFor(
        async () => {
          const got = await call(base, key, 'GET', `/v1/validations/${v.validation_id}`);
          return got.validation_status === 'pending' ? undefined : got;
        },
        300_000,
        `validation ${v.validation_id}`,
      );
      latencies.push(new Date(done.finished_date).getTime() - uploadedAt);
      const outcome = done.declined_reason ?? done.failure_reason ?? done.validation_status;
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return {
    count,
    seconds: round(seconds, 2),
    per_second: round(count / seconds, 2),
    upload_to_finished_ms: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: percentile(latencies, 100),
    },
    outcomes,
  };
}

export async function validationsScenario(ctx) {
  const { info, log, settings } = ctx;
  const base = info.services.validations;
  const key = info.api_key;
  const concurrency = envNum('BENCH_VALIDATIONS_CONCURRENCY', 4);
  const result = { goal: { get_p99_ms_below: 50 }, concurrency };
  // The demo key reaches the validations service's access cache through Kafka: wait for it.
  await waitFor(
    async () => (await fetch(`${base}/v1/auth/whoami`, { headers: { 'Service-API-Key': key } })).status === 200,
    60_000,
    'the demo key at the validations service',
  );

  let testing;
  try {
    testing = require(path.join(repoRoot, 'dist/apps/validations/test/support/engines/index.js'));
  } catch {
    testing = undefined;
  }

  // (a) face comparisons, with GET /v1/validations/{id} measured meanwhile
  if (!testing || !existsSync(path.join(repoRoot, 'node_modules/@vladmandic/face-api/demo/sample1.jpg'))) {
    result.face = { skipped: 'the face model package or the engines test helpers (dist/) are missing' };
  } else {
    // Portraits cut from the face-api samples: the enrolled one and another capture of the same person.
    const [enrolled, photo] = await testing.samePersonPhotos();
    const enrollment = await call(base, key, 'POST', '/v1/enrollments', {
      type: 'face-recognition',
      user_authorized: true,
      account_id: 'bench-face',
    });
    await put(enrollment.file_upload_link, enrolled);
    await waitFor(
      async () => (await call(base, key, 'GET', `/v1/enrollments/${enrollment.enrollment_id}`)).face_enrolled,
      120_000,
      'face enrollment',
    );
    const probe = await call(base, key, 'POST', '/v1/validations', {
      type: 'face-recognition',
      user_authorized: true,
      account_id: 'bench-face',
    });
    const count = envNum('BENCH_VALIDATIONS_FACES', 40);
    log(
      `validations: ${count} face comparisons, ${concurrency} at a time, GET /v1/validations/{id} under load meanwhile`,
    );
    const load = autocannon({
      url: `${base}/v1/validations/${probe.validation_id}`,
      headers: { 'Service-API-Key': key },
      connections: Math.min(settings.connections, 20),
      duration: 3600,
    });
    let face;
    try {
      face = await runValidations({
        base,
        key,
        count,
        concurrency,
        create: () => ({ type: 'face-recognition', user_authorized: true, account_id: 'bench-face' }),
        files: { file_upload_link: photo },
      });
    } finally {
      load.stop();
    }
    const get = await new Promise((resolve) => load.on('done', resolve));
    face.get_during_run = {
      requests: get.requests.total,
      requests_per_sec: round(get.requests.average),
      p50_ms: get.latency.p50,
      p99_ms: get.latency.p99,
      non_2xx: get.non2xx,
    };
    result.face = face;
    result.goal.met = get.latency.p99 < 50;
    log(
      `validations: ${face.per_second} face comparisons/s, upload -> finished p50 ${face.upload_to_finished_ms.p50} ms, p99 ${face.upload_to_finished_ms.p99} ms; GET p99 ${get.latency.p99} ms during the run${result.goal.met ? '' : '  MISSED GOAL (p99 < 50 ms)'}`,
    );
  }

  // (b) document validations
  let render;
  try {
    render = require(
      path.join(repoRoot, 'dist/apps/validations/test/support/engines/document-images.js'),
    ).renderPassport;
  } catch {
    render = undefined;
  }
  if (!render) {
    result.document = { skipped: 'the document engine test renderer is not in dist/' };
  } else {
    const passport = render({ encoding: 'jpeg' }).image;
    const count = envNum('BENCH_VALIDATIONS_DOCUMENTS', 20);
    log(`validations: ${count} passport validations, ${concurrency} at a time`);
    const document = await runValidations({
      base,
      key,
      count,
      concurrency,
      create: () => ({ type: 'document-validation', user_authorized: true, country: 'ALL', document_type: 'passport' }),
      files: { front_url: passport },
    });
    result.document = document;
    log(
      `validations: ${document.per_second} document validations/s, upload -> finished p50 ${document.upload_to_finished_ms.p50} ms, p99 ${document.upload_to_finished_ms.p99} ms (${JSON.stringify(document.outcomes)})`,
    );
  }
  await testing?.closeTestRenderer();
  return { result };
}
