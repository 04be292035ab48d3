// Part (b) of the rules benchmark (bench/rules.mjs): event to action on a private stack.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { rm } from 'node:fs/promises';
import path from 'node:path';

import pg from 'pg';

import { startStack } from '../tools/stack/stack.mjs';
import { freePort, repoRoot, StackError } from '../tools/stack/util.mjs';
import { GOALS, round, stats } from './rules-common.mjs';

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

/** The stack part (b) started itself, if any (the command line stops it on a signal). */
export const startedStack = () => ownStack;

export async function eventToActionBench({ durationSec, rate, source, log, stack: given }) {
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
