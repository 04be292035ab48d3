// Baseline for the checks HTTP benchmark: the least a Node service can do for the same work.
// A bare node:http server with a pg Pool (max 20, like the services' default DB_POOL_SIZE):
//   POST /checks       form-encoded body -> one INSERT of one row -> 201 JSON
//   GET  /checks/:id   one SELECT by primary key -> 200 JSON (404 when missing)
// Run as a child process (own event loop, like a service) by bench/run.mjs:
//   DATABASE_URL=... PORT=... node bench/baseline-server.mjs
// It reports { ready: true, port } over IPC once it listens, and exits on SIGTERM/SIGINT.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

const SCHEMA = 'bench_baseline';
const databaseUrl = process.env.DATABASE_URL;
const port = Number(process.env.PORT ?? 0);
if (!databaseUrl) {
  console.error('baseline: DATABASE_URL is required');
  process.exit(2);
}

const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.BASELINE_POOL_SIZE ?? 20) });

await pool.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
await pool.query(`CREATE TABLE IF NOT EXISTS ${SCHEMA}.checks (
  id text PRIMARY KEY,
  tenant_id text NOT NULL,
  country text NOT NULL,
  type text NOT NULL,
  status text NOT NULL,
  inputs jsonb NOT NULL,
  user_authorized boolean NOT NULL,
  created_at timestamptz NOT NULL
)`);

const INPUT_FIELDS = ['first_name', 'last_name', 'national_id'];

function send(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function create(req, res) {
  const form = new URLSearchParams(await readBody(req));
  const country = form.get('country');
  const type = form.get('type');
  if (!country || !type) return send(res, 400, { error: 'country and type are required' });
  const inputs = {};
  for (const f of INPUT_FIELDS) if (form.has(f)) inputs[f] = form.get(f);
  const row = {
    id: `CHK${randomUUID().replace(/-/g, '')}`,
    tenant_id: 'demo',
    country,
    type,
    status: 'not_started',
    inputs,
    user_authorized: form.get('user_authorized') === 'true',
    created_at: new Date(),
  };
  await pool.query(
    `INSERT INTO ${SCHEMA}.checks (id, tenant_id, country, type, status, inputs, user_authorized, created_at) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)`,
    [
      row.id,
      row.tenant_id,
      row.country,
      row.type,
      row.status,
      JSON.stringify(row.inputs),
      row.user_authorized,
      row.created_at,
    ],
  );
  send(res, 201, {
    check: {
      check_id: row.id,
      country,
      type,
      status: row.status,
      creation_date: row.created_at.toISOString(),
      ...inputs,
    },
  });
}

async function get(res, id) {
  const { rows } = await pool.query(
    `SELECT id, country, type, status, inputs, user_authorized, created_at FROM ${SCHEMA}.checks WHERE id = $1`,
    [id],
  );
  if (!rows.length) return send(res, 404, { error: 'not found' });
  const r = rows[0];
  send(res, 200, {
    check: {
      check_id: r.id,
      country: r.country,
      type: r.type,
      status: r.status,
      creation_date: r.created_at.toISOString(),
      user_authorized: r.user_authorized,
      ...r.inputs,
    },
  });
}

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  let work;
  if (req.method === 'POST' && url === '/checks') work = create(req, res);
  else if (req.method === 'GET' && url.startsWith('/checks/'))
    work = get(res, decodeURIComponent(url.slice('/checks/'.length)));
  else if (req.method === 'GET' && url === '/health') work = Promise.resolve(send(res, 200, { status: 'ok' }));
  else work = Promise.resolve(send(res, 404, { error: 'no route' }));
  work.catch((err) => {
    if (!res.headersSent) send(res, 500, { error: err.message });
    else res.destroy(err);
  });
});
server.keepAliveTimeout = 65_000;

server.listen(port, '127.0.0.1', () => {
  const actual = server.address().port;
  if (process.send) process.send({ ready: true, port: actual });
  else console.log(`baseline listening on http://127.0.0.1:${actual}`);
});

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  server.closeAllConnections?.();
  server.close();
  await pool.end().catch(() => {});
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.on('disconnect', shutdown);
