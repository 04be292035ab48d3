// Customers benchmark (the `customers` scenario of `npm run bench`; stack: checks, account, identity, customers).
//
// (a) Events folded into profiles per second: BENCH_CUSTOMERS_EVENTS (default 20,000)
//     checks.check.finished events produced onto Kafka as the checks service publishes them (a
//     fifth of them a second check of a person already seen), and the time until the customers
//     service has folded all of them (inbox entries of its profile consumer).
// (b) Segment compute over BENCH_CUSTOMERS_PROFILES generated profiles (default 1,000,000;
//     written in bulk with one INSERT … SELECT generate_series): POST /compute of a segment whose
//     rule reads five variables, timed from the request to `completed` (goal < 3 s) with the
//     rule pushed down to SQL; then, in the same run, the same rule evaluated by json-logic-js
//     `apply` per profile in Node over the same variables read from PostgreSQL (keyset pages of
//     50,000), and the ratio. Both must select the same number of profiles.
//     BENCH_CUSTOMERS_NODE_COMPUTE=1 also times the service's own Node fallback (evaluation=node).
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { StackError } from '../tools/stack/util.mjs';

const require = createRequire(import.meta.url);
const GOAL_COMPUTE_S = 3;

const num = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new StackError(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
};
const round = (n, d = 3) => (Number.isFinite(n) ? Number(n.toFixed(d)) : null);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The segment rule of the benchmark (and the variables it reads, as the service's SEGMENT_VARIABLES define them). */
export const BENCH_RULE = {
  and: [
    { '>=': [{ var: 'latest_check_score' }, 0.7] },
    { in: [{ var: 'country' }, ['CO', 'MX']] },
    { in: ['vip', { var: 'tags' }] },
    { '<': [{ var: 'failed_validations_count' }, 2] },
    { '!=': [{ var: 'gender' }, 'female'] },
  ],
};
const RULE_COLUMNS = `latest_check_score, country, to_jsonb(tags) AS tags, failed_validations_count, gender`;

async function http(url, { method = 'GET', apiKey, json } = {}) {
  const res = await fetch(url, {
    method,
    headers: { 'Service-API-Key': apiKey, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });
  const body = await res.json().catch(() => undefined);
  if (res.status >= 300) throw new StackError(`${method} ${url} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** (a) Produces checks.check.finished events and waits until the customers service has folded them all. */
async function foldEvents({ info, log, db }) {
  const events = num('BENCH_CUSTOMERS_EVENTS', 20_000);
  const { Kafka, logLevel } = require('kafkajs');
  const kafka = new Kafka({ clientId: 'bench-customers', brokers: info.kafka_brokers, logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  const processed = async () =>
    Number(
      (await db.query(`SELECT count(*) FROM customers.processed_messages WHERE consumer = 'customers.profiles'`))
        .rows[0].count,
    );
  const before = await processed();
  const people = Math.ceil(events * 0.8);
  const run = randomUUID().slice(0, 8);
  const t0 = performance.now();
  for (let start = 0; start < events; start += 500) {
    const messages = [];
    for (let i = start; i < Math.min(events, start + 500); i++) {
      const checkId = `CHKBENCH${run}${i}`;
      const now = new Date().toISOString();
      const envelope = {
        id: randomUUID(),
        type: 'checks.check.finished',
        version: 1,
        tenant_id: info.tenant_id,
        occurred_at: now,
        aggregate_id: checkId,
        payload: {
          check: {
            check_id: checkId,
            tenant_id: info.tenant_id,
            country: 'CO',
            type: 'person',
            status: 'completed',
            score: (i % 100) / 100,
            id_score: 1,
            homonym_score: 1,
            inputs: { national_id: String(9_000_000_000 + (i % people)), first_name: 'Bench', last_name: run },
            creation_date: now,
            update_date: now,
          },
        },
      };
      messages.push({ key: checkId, value: JSON.stringify(envelope) });
    }
    await producer.send({ topic: 'checks.check.finished', messages });
  }
  const producedS = (performance.now() - t0) / 1000;
  log(`customers: ${events} checks.check.finished events produced in ${producedS.toFixed(1)} s`);
  const deadline = Date.now() + num('BENCH_CUSTOMERS_FOLD_TIMEOUT', 600) * 1000;
  let done = 0;
  while (Date.now() < deadline) {
    done = (await processed()) - before;
    if (done >= events) break;
    await sleep(250);
  }
  const foldedS = (performance.now() - t0) / 1000;
  await producer.disconnect();
  const rate = done / foldedS;
  log(
    `customers: ${done}/${events} events folded into profiles in ${foldedS.toFixed(1)} s: ${rate.toFixed(0)} events/s`,
  );
  return {
    events,
    folded: done,
    people,
    produced_s: round(producedS, 2),
    folded_s: round(foldedS, 2),
    events_per_second: round(rate, 1),
  };
}

/** Writes `n` profiles of the tenant in one statement (deterministic pseudo-random attributes). */
async function generateProfiles(db, tenantId, n, log) {
  const t0 = performance.now();
  await db.query(
    `INSERT INTO customers.profiles (id, tenant_id, name, country, document_number, document_type, gender, tags,
        checks_count, latest_check_score, latest_check_status, validations_count, failed_validations_count,
        transactions_count, created_at, updated_at)
     SELECT 'CUS' || md5($1 || g), $1, 'Person ' || g, (ARRAY['CO','MX','BR','CL','PE'])[1 + g % 5],
            (8000000000 + g)::text, 'national-id', (ARRAY['male','female','other'])[1 + (g / 7) % 3],
            CASE WHEN g % 4 = 0 THEN ARRAY['vip'] WHEN g % 4 = 1 THEN ARRAY['lead','vip'] ELSE ARRAY['lead'] END,
            1 + g % 3, ((g * 37) % 101) / 100.0, 'completed', g % 4, (g / 3) % 3, 1 + g % 3 + g % 4, now(), now()
       FROM generate_series(1, $2) AS g`,
    [tenantId, n],
  );
  // As autovacuum would leave a table of that age: statistics and the visibility map (index-only scans).
  await db.query(`VACUUM (ANALYZE) customers.profiles`);
  const s = (performance.now() - t0) / 1000;
  log(`customers: ${n} profiles generated in ${s.toFixed(1)} s`);
  return s;
}

/** (b) Segment compute: push-down through the API, then json-logic-js per profile in Node. */
async function segmentCompute({ info, log, db }) {
  const n = num('BENCH_CUSTOMERS_PROFILES', 1_000_000);
  const base = info.services.customers;
  const apiKey = info.api_key;
  const tenant = info.tenant_id;
  const generatedS = await generateProfiles(db, tenant, n, log);
  const [{ total }] = (
    await db.query(
      `SELECT count(*)::int AS total FROM customers.profiles WHERE tenant_id = $1 AND merged_into IS NULL`,
      [tenant],
    )
  ).rows;

  const segment = (
    await http(`${base}/v1/customers/segments`, {
      method: 'POST',
      apiKey,
      json: { name: `bench ${randomUUID().slice(0, 6)}`, rule: BENCH_RULE },
    })
  ).segment;
  const compute = async (evaluation) => {
    const t0 = performance.now();
    await http(`${base}/v1/customers/segments/${segment.segment_id}/compute`, {
      method: 'POST',
      apiKey,
      json: { evaluation },
    });
    let s;
    for (;;) {
      s = (await http(`${base}/v1/customers/segments/${segment.segment_id}`, { apiKey })).segment;
      if (s.compute.status === 'completed' || s.compute.status === 'failed') break;
      await sleep(20);
    }
    const wallS = (performance.now() - t0) / 1000;
    if (s.compute.status !== 'completed') throw new StackError(`segment compute failed: ${s.compute.error}`);
    const jobS = (new Date(s.compute.finished_at) - new Date(s.compute.started_at)) / 1000;
    return { wallS, jobS, segment: s };
  };
  // One warm-up compute (plans, caches), then the measured one.
  await compute('auto');
  const pushed = await compute('auto');
  log(
    `customers: push-down compute over ${total} profiles: ${pushed.wallS.toFixed(2)} s request to completed (job ${pushed.jobS.toFixed(2)} s), ${pushed.segment.members_count} members, evaluation ${pushed.segment.compute.evaluation}`,
  );

  // json-logic-js per profile in Node, over the same variables read from PostgreSQL.
  const jsonLogic = require('json-logic-js');
  const t0 = performance.now();
  let evalMs = 0;
  let matched = 0;
  let cursor = '';
  for (;;) {
    const { rows } = await db.query(
      `SELECT id, ${RULE_COLUMNS} FROM customers.profiles WHERE tenant_id = $1 AND merged_into IS NULL AND id > $2 ORDER BY id LIMIT 50000`,
      [tenant, cursor],
    );
    if (!rows.length) break;
    const te = performance.now();
    for (const row of rows) {
      const record = {};
      for (const k of ['latest_check_score', 'country', 'tags', 'failed_validations_count', 'gender'])
        if (row[k] !== null) record[k] = row[k];
      if (jsonLogic.truthy(jsonLogic.apply(BENCH_RULE, record))) matched++;
    }
    evalMs += performance.now() - te;
    cursor = rows[rows.length - 1].id;
  }
  const nodeS = (performance.now() - t0) / 1000;
  const ratio = nodeS / pushed.wallS;
  log(
    `customers: json-logic-js in Node: ${nodeS.toFixed(2)} s (${(evalMs / 1000).toFixed(2)} s evaluating, the rest reading profiles), ${matched} members; push-down is ${ratio.toFixed(1)}x faster`,
  );
  if (matched !== pushed.segment.members_count)
    throw new StackError(`push-down found ${pushed.segment.members_count} members, json-logic-js ${matched}`);

  let serviceNode = null;
  if (process.env.BENCH_CUSTOMERS_NODE_COMPUTE === '1') {
    const r = await compute('node');
    serviceNode = { wall_s: round(r.wallS, 2), job_s: round(r.jobS, 2), members: r.segment.members_count };
    log(`customers: the service's Node fallback compute: ${r.wallS.toFixed(2)} s`);
  }
  return {
    profiles: total,
    generated_s: round(generatedS, 1),
    rule: BENCH_RULE,
    members: pushed.segment.members_count,
    pushdown: { wall_s: round(pushed.wallS, 3), job_s: round(pushed.jobS, 3), steps_of: 'CUSTOMERS_SEGMENT_SQL_CHUNK' },
    json_logic_js_node: { total_s: round(nodeS, 3), evaluate_s: round(evalMs / 1000, 3), members: matched },
    ratio_node_over_pushdown: round(ratio, 1),
    service_node_fallback: serviceNode,
  };
}

/** The `customers` scenario of bench/run.mjs. */
export async function customersScenario(ctx) {
  const { info, log } = ctx;
  if (!info?.services?.customers || !info.api_key)
    throw new StackError('the customers scenario needs a stack with customers and a demo tenant');
  // The demo key reaches the customers service's access cache through Kafka.
  for (let i = 0; ; i++) {
    const res = await fetch(`${info.services.customers}/v1/auth/whoami`, {
      headers: { 'Service-API-Key': info.api_key },
    });
    if (res.status === 200) break;
    if (i > 300) throw new StackError(`the customers service does not accept the demo key: ${res.status}`);
    await sleep(100);
  }
  const db = new pg.Client({ connectionString: info.postgres_url });
  await db.connect();
  try {
    const fold = await foldEvents({ info, log, db });
    const segments = await segmentCompute({ info, log, db });
    const met = segments.pushdown.wall_s < GOAL_COMPUTE_S;
    log(
      `customers: segment compute ${segments.pushdown.wall_s} s for ${segments.profiles} profiles${met ? '' : `  MISSED GOAL (< ${GOAL_COMPUTE_S} s)`}; Node/push-down ratio ${segments.ratio_node_over_pushdown}x; ${fold.events_per_second} events folded/s`,
    );
    return { result: { goal: { segment_compute_s_below: GOAL_COMPUTE_S, met }, fold, segments } };
  } finally {
    await db.end();
  }
}
