// Scenario `console-lists` of `npm run bench`: the console's list pages with 10,000 checks and
// 10,000 identity processes in the tenant (issue 35: each list answers in under 1 s).
//
// Seeding: one check (POST /v1/checks, finished by the engine) and one process (a web key, POST
// /v1/processes, its form step) are made through the APIs; then each is copied
// BENCH_CONSOLE_ROWS - 1 times (default 10,000 in all) in one SQL statement into its service's own
// table (the row as the service wrote it, with a new id, key and a creation time one second apart):
// the lists read these tables only, so the copies cost them what real rows cost. The demo
// administrator signs in to the console with the code of the stack's mail sink; then, through the
// console's backend (session cookie, the user's short-lived key, the service's own permission check),
// BENCH_CONSOLE_REQUESTS (default 300) list requests, one at a time, a mix of what the pages ask:
// the first page of checks and of processes, pages deep in each (followed `next` links), and the
// processes' filters (status, search by id, a date range). Reported: p50/p99 per kind and overall;
// goal p99 < 1 s.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import pg from 'pg';

import { StackError } from '../tools/stack/util.mjs';
import { num, percentile, round } from './kit.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function api(base, key, method, pathname, body) {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: { 'Service-API-Key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => undefined);
  if (res.status >= 300) throw new StackError(`${method} ${pathname} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/** Waits for `check` to hold, every 250 ms, up to `ms`. */
async function until(what, ms, check) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new StackError(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

/** Copies the row `id` of `table` (n - 1 times) with new ids (prefix + 32 hex) and creation times 1 s apart. */
async function copyRow(db, table, id, prefix, n, extra = '') {
  const res = await db.query(
    // The record built once per copy (LATERAL): `(f(...)).*` would call f once per column.
    `INSERT INTO ${table}
     SELECT r.* FROM ${table} t, generate_series(1, $3::int - 1) g,
       LATERAL jsonb_populate_record(NULL::${table}, to_jsonb(t) || jsonb_build_object(
         'id', $2 || md5(t.id || '-' || g),
         'created_at', t.created_at - make_interval(secs => g)${extra})) r
     WHERE t.id = $1`,
    [id, prefix, n],
  );
  return res.rowCount;
}

/** Signs the demo administrator in to the console with the code the stack's mail sink received. */
async function signIn(consoleUrl, email, mailDir) {
  const before = new Set(await readdir(mailDir).catch(() => []));
  const asked = await fetch(`${consoleUrl}/api/session/code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (asked.status !== 202) throw new StackError(`console code: ${asked.status} ${await asked.text()}`);
  const code = await until('the sign-in code mail', 30_000, async () => {
    for (const name of await readdir(mailDir)) {
      if (before.has(name) || !name.endsWith('.json')) continue;
      const meta = JSON.parse(await readFile(path.join(mailDir, name), 'utf8'));
      const found = meta.to?.includes(email.toLowerCase()) && /\b(\d{6})\b/.exec(meta.subject ?? '');
      if (found) return found[1];
    }
    return undefined;
  });
  const res = await fetch(`${consoleUrl}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, code }),
  });
  if (res.status >= 300) throw new StackError(`console sign-in: ${res.status} ${await res.text()}`);
  return res.headers.get('set-cookie').split(';')[0];
}

export async function consoleListsScenario(ctx) {
  const rows = num('BENCH_CONSOLE_ROWS', 10_000);
  const requests = num('BENCH_CONSOLE_REQUESTS', 300);
  const { services, api_key: key, postgres_url: pgUrl } = ctx.info;
  const db = new pg.Client({ connectionString: pgUrl });
  await db.connect();
  try {
    // One real check and one real process, through the APIs.
    const created = await api(services.checks, key, 'POST', '/v1/checks', {
      country: 'CO',
      type: 'person',
      user_authorized: true,
      national_id: '1000000002',
      first_name: 'Carlos Andrés',
      last_name: 'Rojas Pérez',
    });
    const checkId = created.check.check_id;
    await until('the check to finish', 120_000, async () => {
      const c = await api(services.checks, key, 'GET', `/v1/checks/${checkId}`);
      return c.check.status === 'completed' || c.check.status === 'error';
    });
    const flow = await api(services.identity, key, 'POST', '/v1/flows', {
      name: 'bench console',
      redirect_url: 'https://example.test/done',
      steps: [{ type: 'form', fields: [{ name: 'first_name', label: 'First name' }] }],
    });
    const web = await api(services.identity, key, 'POST', '/v1/api-keys', {
      key_type: 'web',
      grant: 'digital-identity',
      flow_id: flow.flow_id,
      country: 'CO',
      redirect_url: 'https://example.test/done',
    });
    const proc = await api(services.identity, web.api_key, 'POST', '/v1/processes');
    const [step] = proc.steps;
    await api(services.identity, web.api_key, 'POST', `/v1/processes/${proc.process_id}`, {
      step_id: step.step_id,
      verification_id: step.verification_id,
      type: 'form',
      expected_inputs: [{ name: 'first_name', value: 'Ana' }],
    });

    const t0 = performance.now();
    const copiedChecks = await copyRow(db, 'checks.checks', checkId, 'CHK', rows);
    const copiedProcesses = await copyRow(
      db,
      'identity.processes',
      proc.process_id,
      'IDP',
      rows,
      `, 'key_id', 'KEYbench' || md5(t.id || '-' || g)`,
    );
    await db.query('ANALYZE checks.checks; ANALYZE identity.processes');
    const seedSeconds = (performance.now() - t0) / 1000;
    const counts = (
      await db.query(
        `SELECT (SELECT count(*) FROM checks.checks WHERE tenant_id = $1)::int AS checks,
                (SELECT count(*) FROM identity.processes WHERE tenant_id = $1)::int AS processes`,
        [ctx.info.tenant_id],
      )
    ).rows[0];
    ctx.log(
      `console-lists: copied ${copiedChecks} checks and ${copiedProcesses} processes in ${round(seedSeconds, 2)} s; the tenant has ${counts.checks} checks and ${counts.processes} processes`,
    );

    const cookie = await signIn(services.console, ctx.info.admin_user, ctx.info.smtp.mail_dir);
    const get = async (pathname) => {
      const started = performance.now();
      const res = await fetch(`${services.console}${pathname}`, { headers: { cookie } });
      const body = await res.json();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new StackError(`GET ${pathname} answered ${res.status}: ${JSON.stringify(body)}`);
      return { ms, body };
    };
    const rel = (service, next) => {
      const u = new URL(next);
      return `/api/services/${service}${u.pathname}${u.search}`;
    };
    // Start keys deep in each list: `depth` pages in, by following `next`.
    const deepKeys = async (service, first, depth) => {
      const keys = [];
      let page = (await get(first)).body;
      for (let i = 0; i < depth && page.next; i++) {
        keys.push(rel(service, page.next));
        page = (await get(rel(service, page.next))).body;
      }
      return keys;
    };
    const checksDeep = await deepKeys('checks', '/api/services/checks/v1/checks', 40);
    const processesDeep = await deepKeys('identity', '/api/services/identity/v1/processes', 40);
    const today = new Date().toISOString().slice(0, 10);
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const kinds = {
      'checks, first page': () => '/api/services/checks/v1/checks',
      'checks, a deep page': (i) => checksDeep[i % checksDeep.length],
      'processes, first page': () => '/api/services/identity/v1/processes',
      'processes, a deep page': (i) => processesDeep[i % processesDeep.length],
      'processes, status filter': () => '/api/services/identity/v1/processes?status=pending',
      'processes, search by id': () => `/api/services/identity/v1/processes?search=${proc.process_id}`,
      'processes, date range': () =>
        `/api/services/identity/v1/processes?start_date=${monthAgo}T00:00:00Z&end_date=${today}T23:59:59Z`,
    };
    const names = Object.keys(kinds);
    const latencies = Object.fromEntries(names.map((n) => [n, []]));
    // Warm-up: each kind a few times (JIT, pools, the call key's first signature).
    for (let i = 0; i < names.length * 3; i++) await get(kinds[names[i % names.length]](i));
    for (let i = 0; i < requests; i++) {
      const name = names[i % names.length];
      latencies[name].push((await get(kinds[name](i))).ms);
    }
    const all = Object.values(latencies).flat();
    const summary = (values) => ({
      requests: values.length,
      p50_ms: round(percentile(values, 50)),
      p99_ms: round(percentile(values, 99)),
      max_ms: round(Math.max(...values)),
    });
    const result = {
      rows: { checks: counts.checks, processes: counts.processes, seed_seconds: round(seedSeconds, 2) },
      overall: summary(all),
      by_kind: Object.fromEntries(names.map((n) => [n, summary(latencies[n])])),
      goal: { p99_ms_below: 1000, met: percentile(all, 99) < 1000 },
    };
    ctx.log(`console-lists: overall p50 ${result.overall.p50_ms} ms, p99 ${result.overall.p99_ms} ms (goal < 1000 ms)`);
    for (const n of names) ctx.log(`  ${n}: p50 ${result.by_kind[n].p50_ms} ms, p99 ${result.by_kind[n].p99_ms} ms`);
    return { result };
  } finally {
    await db.end();
  }
}
