// Shared measurement kit of the bench scenarios (bench/run.mjs): settings, logging, autocannon
// runs with warm-up and server CPU, child processes cleaned up on exit, small HTTP and table helpers.
import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import autocannon from 'autocannon';

import { repoRoot, StackError, stopChild } from '../tools/stack/util.mjs';

export const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const resultsDir = path.join(benchDir, 'results');
export const stackDir = path.join(repoRoot, '.stack', 'bench');

export const num = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new StackError(`${name} must be a non-negative number, got ${JSON.stringify(raw)}`);
  return n;
};

export const settings = {
  durationSec: num('BENCH_DURATION', 20),
  warmupSec: num('BENCH_WARMUP', 5),
  connections: num('BENCH_CONNECTIONS', 50),
};
if (!(settings.durationSec > 0)) throw new StackError('BENCH_DURATION must be greater than 0');
if (!(settings.connections >= 1)) throw new StackError('BENCH_CONNECTIONS must be at least 1');
/**
 * checks-http's goals (issue 39), against the bare server of the same run: POST at least 0.75 of
 * the bare INSERT's rate, p99 under 30 ms, at most twice its CPU per request and 1,500 B of WAL per
 * check; GET at least 0.8 of the bare SELECT's rate, p99 under 25 ms.
 */
export const GOALS = {
  post: { minThroughputRatio: 0.75, maxServiceP99Ms: 30, maxCpuRatio: 2, maxWalBytes: 1500 },
  get: { minThroughputRatio: 0.8, maxServiceP99Ms: 25 },
};

const t0 = Date.now();
export const log = (msg) => console.log(`[bench +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

// ---------------------------------------------------------------------------------------------
// Measurement helpers
// ---------------------------------------------------------------------------------------------

let currentLoad = null; // the running autocannon instance, stopped on SIGINT
let interrupted = false;

/** Stops the running load, if any. */
export function stopLoad() {
  currentLoad?.stop?.();
}

/** Stops the running load and makes every later one throw Interrupted (SIGINT, a crash). */
export function interrupt() {
  interrupted = true;
  stopLoad();
}

export const isInterrupted = () => interrupted;

export class Interrupted extends Error {}

export async function runLoad(opts) {
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

/** The fields of /proc/<pid>/stat after the command name (state first: ppid is [1], utime [11], stime [12]); throws where there is none. */
function procStat(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** Clock ticks to ms (USER_HZ = 100). */
const ticksMs = (ticks) => (ticks * 1000) / 100;

/** CPU time (user + system, ms) a process has used so far; null where /proc is not available. */
export function cpuMs(pid) {
  if (!pid) return null;
  try {
    const f = procStat(pid);
    return ticksMs(Number(f[11]) + Number(f[12]));
  } catch {
    return null;
  }
}

/**
 * CPU time (ms) used so far by a PostgreSQL server: its postmaster (`postmasterPid`), every child
 * process (backends, WAL writer, checkpointer, autovacuum) and the children those have reaped
 * (cutime, cstime of the postmaster: backends that ended). Null where /proc is not available.
 */
export function postgresCpuMs(postmasterPid) {
  if (!postmasterPid) return null;
  try {
    const own = procStat(postmasterPid);
    let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || Number(entry) === postmasterPid) continue;
      try {
        const f = procStat(entry);
        if (Number(f[1]) === postmasterPid) ticks += Number(f[11]) + Number(f[12]);
      } catch {
        // the process ended meanwhile
      }
    }
    return ticksMs(ticks);
  } catch {
    return null;
  }
}

/** The postmaster's pid of the PostgreSQL server `db` (a pg client) is connected to: its backend's parent. */
export async function postmasterPidOf(db) {
  try {
    const backend = (await db.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    return Number(procStat(backend)[1]);
  } catch {
    return null;
  }
}

export const round = (n, digits = 1) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

export function summarize(target, result) {
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
export async function measure(target, opts, { before, after, serverPid } = {}) {
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
export const children = new Set();

/** Forks a Node script with IPC and resolves once it sends { ready: true, ... }. */
export function startChild(script, { env = {}, readyTimeoutMs = 15_000, name = path.basename(script) } = {}) {
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

export async function http(url, { method = 'GET', headers = {}, body } = {}) {
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

export function printTable(rows) {
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

export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))], 2);
};

/**
 * PostgreSQL's WAL between two positions by record type (pg_walinspect, shipped with PostgreSQL
 * 15 and later; the bench's user is the superuser), per unit of work: what a request or a check
 * writes, to the byte. Null (with a log line) where the extension is not available.
 */
export async function walByRecordType(db, fromLsn, toLsn, units, top = 12) {
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
    const { rows } = await db.query(
      `SELECT "resource_manager/record_type" AS record, count, record_size, fpi_size, combined_size
         FROM pg_get_wal_stats($1::pg_lsn, $2::pg_lsn, true) WHERE count > 0 ORDER BY combined_size DESC LIMIT ${Math.trunc(top)}`,
      [fromLsn, toLsn],
    );
    return rows.map((r) => ({
      record: r.record,
      per_unit: round(Number(r.count) / units, 2),
      bytes_per_unit: Math.round(Number(r.combined_size) / units),
      full_page_image_bytes_per_unit: Math.round(Number(r.fpi_size) / units),
    }));
  } catch (err) {
    log(`WAL by record type not available: ${err.message}`);
    return null;
  }
}

/** Prints walByRecordType's rows under a title. */
export function printWalBreakdown(title, rows) {
  if (!rows?.length) return;
  console.log(`\n${title}`);
  console.log(`${'record'.padEnd(28)}  ${'count'.padStart(6)}  ${'bytes'.padStart(6)}  of which full-page images`);
  for (const r of rows)
    console.log(
      `${r.record.padEnd(28)}  ${String(r.per_unit).padStart(6)}  ${String(r.bytes_per_unit).padStart(6)}  ${r.full_page_image_bytes_per_unit}`,
    );
}
