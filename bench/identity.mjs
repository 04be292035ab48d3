// Scenario `identity` of `npm run bench`: identity-verification processes under load.
//
// A one-step flow (a form with two fields) is created; then BENCH_IDENTITY_PROCESSES processes
// (default 200), BENCH_IDENTITY_CONCURRENCY at a time (default 8), each: a temporary web key bound
// to the flow (POST /v1/api-keys), the process (POST /v1/processes with that key), and its form
// step (POST /v1/processes/{id}, JSON). Reported: processes created per second and step
// submissions per second (wall time of each phase), with p50/p99 of each call; and, as a same-run
// baseline, GET /health calls per second on the same service with the same concurrency (the ratio
// says how far the process paths are from the service's bare HTTP path).
import { StackError } from '../tools/stack/util.mjs';

const envNum = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const round = (n, d = 1) => (Number.isFinite(n) ? Number(n.toFixed(d)) : null);
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null;
};

async function call(base, key, method, pathname, body) {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: { ...(key ? { 'Service-API-Key': key } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => undefined);
  if (res.status >= 300) throw new StackError(`${method} ${pathname} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/** Runs `count` tasks, `concurrency` at a time; returns per-second rate and latency percentiles. */
async function phase(count, concurrency, task) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      await task(i);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return {
    count,
    per_second: round(count / seconds),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
  };
}

export async function identityScenario(ctx) {
  const base = ctx.info.services.identity;
  const key = ctx.info.api_key;
  const count = envNum('BENCH_IDENTITY_PROCESSES', 200);
  const concurrency = envNum('BENCH_IDENTITY_CONCURRENCY', 8);
  const flow = await call(base, key, 'POST', '/v1/flows', {
    name: 'bench',
    redirect_url: 'https://example.test/done',
    steps: [
      {
        type: 'form',
        fields: [
          { name: 'first_name', label: 'First name' },
          { name: 'last_name', label: 'Last name' },
        ],
      },
    ],
  });
  const processes = [];
  ctx.log(`identity: ${count} processes, ${concurrency} at a time`);
  const created = await phase(count, concurrency, async (i) => {
    const web = await call(base, key, 'POST', '/v1/api-keys', {
      key_type: 'web',
      grant: 'digital-identity',
      flow_id: flow.flow_id,
      country: 'CO',
      redirect_url: 'https://example.test/done',
    });
    const p = await call(base, web.api_key, 'POST', '/v1/processes');
    processes[i] = { key: web.api_key, process: p };
  });
  const submitted = await phase(count, concurrency, async (i) => {
    const { key: webKey, process: p } = processes[i];
    const [step] = p.steps;
    const done = await call(base, webKey, 'POST', `/v1/processes/${p.process_id}`, {
      step_id: step.step_id,
      verification_id: step.verification_id,
      type: 'form',
      expected_inputs: [
        { name: 'first_name', value: `Ana${i}` },
        { name: 'last_name', value: 'Bench' },
      ],
    });
    if (done.status !== 'success') throw new StackError(`process ${p.process_id} ended ${done.status}`);
  });
  const baseline = await phase(count, concurrency, () => call(base, undefined, 'GET', '/health'));
  const result = {
    settings: { processes: count, concurrency },
    processes_created: created,
    step_submissions: submitted,
    baseline_health: baseline,
    ratio_created_to_baseline: round(created.per_second / baseline.per_second, 3),
    ratio_submitted_to_baseline: round(submitted.per_second / baseline.per_second, 3),
  };
  ctx.log(
    `identity: ${created.per_second} processes/s (key + process), ${submitted.per_second} step submissions/s, ` +
      `baseline ${baseline.per_second} GET /health/s`,
  );
  return { result };
}
