// Part (a) of the rules benchmark (bench/rules.mjs): rule evaluation in process.
import { createRequire } from 'node:module';
import os from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';

import { dist, GOALS, round, stats } from './rules-common.mjs';

const require = createRequire(import.meta.url);

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

export function evaluationBench(log) {
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
