// Scenario: checks HTTP (POST /v1/checks and GET /v1/checks/{id}) against a bare node:http + pg
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';

import { freePort, repoRoot, StackError } from '../tools/stack/util.mjs';
import {
  GOALS,
  benchDir,
  cpuMs,
  http,
  log,
  num,
  postgresCpuMs,
  postmasterPidOf,
  printTable,
  printWalBreakdown,
  round,
  settings,
  walByRecordType,
} from './kit.mjs';

const require = createRequire(import.meta.url);

export async function checksHttp(ctx) {
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
          if (bytes) out.wal_by_record = await walByRecordType(db, pre.lsn, lsn, summary.requests_total);
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
    // The drain: what finishing a check costs the checks process and PostgreSQL (default sandbox
    // latencies), to tell whether the collectors' concurrency or the work sets its rate.
    const postmaster = await postmasterPidOf(db);
    const drainStart = { cpu: cpuMs(servicePid), pg: postgresCpuMs(postmaster) };
    postService.backlog = await drainBacklog(num('BENCH_DRAIN_TIMEOUT', 120) * 1000);
    const backlog = postService.backlog;
    if (backlog?.at_end_of_run.unfinished_checks) {
      const finished = backlog.at_end_of_run.unfinished_checks - (backlog.left?.unfinished_checks ?? 0);
      const seconds = backlog.drain_ms / 1000;
      // CPU ms used since `from` (null where /proc could not be read).
      const since = (from, now) => (from === null || now === null ? null : now - from);
      const cpu = since(drainStart.cpu, cpuMs(servicePid));
      const pgCpu = since(drainStart.pg, postgresCpuMs(postmaster));
      backlog.checks_finished_per_sec = round(finished / seconds);
      backlog.checks_process_cpu_pct = cpu === null ? null : round(cpu / 10 / seconds);
      backlog.postgres_cpu_pct = pgCpu === null ? null : round(pgCpu / 10 / seconds);
      backlog.per_check_ms = {
        checks_process: cpu === null || !finished ? null : round(cpu / finished, 3),
        postgres: pgCpu === null || !finished ? null : round(pgCpu / finished, 3),
      };
      log(
        `after the burst the engine finished ${finished} checks at ${backlog.checks_finished_per_sec} checks/s (${backlog.drained ? 'all' : `${backlog.left?.unfinished_checks} left`}); ` +
          `checks process ${backlog.checks_process_cpu_pct ?? '-'}% of a core (${backlog.per_check_ms.checks_process ?? '-'} ms per check), PostgreSQL ${backlog.postgres_cpu_pct ?? '-'}% (${backlog.per_check_ms.postgres ?? '-'} ms per check)`,
      );
    }
    const targets = [postBase, postService, getBase, getService];

    // Each goal of GOALS against the bare server of this run: [what, figure, goal, met].
    const compare = (operation, base, svc, goals) => {
      const ratio = base.requests_per_sec_avg > 0 ? svc.requests_per_sec_avg / base.requests_per_sec_avg : null;
      const baseCpu = base.server_cpu?.ms_per_request;
      const cpuRatio = baseCpu > 0 && svc.server_cpu?.ms_per_request ? svc.server_cpu.ms_per_request / baseCpu : null;
      const wal = svc.checks?.wal_bytes_per_request ?? null;
      const checks = [
        [
          'req/s of bare',
          round(ratio, 3),
          `>= ${goals.minThroughputRatio}`,
          ratio !== null && ratio >= goals.minThroughputRatio,
        ],
        ['p99 ms', svc.latency_ms.p99, `< ${goals.maxServiceP99Ms}`, svc.latency_ms.p99 < goals.maxServiceP99Ms],
      ];
      if (goals.maxCpuRatio)
        checks.push([
          'CPU per request of bare',
          round(cpuRatio, 2),
          `<= ${goals.maxCpuRatio}`,
          cpuRatio !== null && cpuRatio <= goals.maxCpuRatio,
        ]);
      if (goals.maxWalBytes)
        checks.push(['WAL B per request', wal, `<= ${goals.maxWalBytes}`, wal !== null && wal <= goals.maxWalBytes]);
      const clean = base.non_2xx + base.errors + svc.non_2xx + svc.errors === 0;
      return {
        operation,
        baseline_rps: base.requests_per_sec_avg,
        service_rps: svc.requests_per_sec_avg,
        ratio: round(ratio, 3),
        service_p99_ms: svc.latency_ms.p99,
        cpu_ratio: round(cpuRatio, 3),
        wal_bytes_per_request: wal,
        goals: checks.map(([what, figure, goal, met]) => ({ what, figure, goal, met })),
        goals_met: checks.every((c) => c[3]) && clean,
        clean_run: clean,
      };
    };
    const comparisons = [
      compare('INSERT / POST', targets[0], targets[1], GOALS.post),
      compare('SELECT / GET', targets[2], targets[3], GOALS.get),
    ];

    console.log(
      `\n== checks-http: ${settings.connections} connections, ${settings.durationSec}s per target (+${settings.warmupSec}s warm-up), ${os.cpus().length} CPUs ==`,
    );
    printTable(targets);
    console.log('');
    for (const c of comparisons) {
      const goals = c.goals.map((g) => `${g.what} ${g.figure ?? 'n/a'} (goal ${g.goal}: ${g.met ? 'MET' : 'MISSED'})`);
      console.log(`${c.operation.padEnd(13)}  ${goals.join(', ')}${c.clean_run ? '' : '  [run had non-2xx/errors]'}`);
    }
    printWalBreakdown(
      'service POST /v1/checks: WAL per request by record type (pg_walinspect)',
      postService.checks?.wal_by_record,
    );
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
    const goalsMet = comparisons.every((c) => c.goals_met);
    console.log(`\ngoals ${goalsMet ? 'MET' : 'NOT met'}\n`);

    return { result: { goals: GOALS, goals_met: goalsMet, targets, comparisons } };
  } finally {
    await baseline.stop();
    await db.end().catch(() => {});
  }
}
