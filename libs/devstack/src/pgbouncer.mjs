// PgBouncer in transaction mode in front of the stack's PostgreSQL (Debian: apt-get install
// pgbouncer), as deploy/overlays/production-pgbouncer runs it: one database alias per service
// schema, `kyc_<schema>`, whose server connections get that schema's search_path from
// connect_query (a service behind it sets DB_TRANSACTION_POOLER=true and sends none itself).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { chown, mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

import { assertPortFree, StackError, stopChild, tail, waitFor } from './util.mjs';

/** The pgbouncer.ini of `schemas` over the PostgreSQL at `postgresUrl`, listening on `port`. */
export function pgbouncerIni({ postgresUrl, port, schemas, dir }) {
  const pg = new URL(postgresUrl);
  const db = pg.pathname.slice(1);
  const user = decodeURIComponent(pg.username);
  const password = decodeURIComponent(pg.password);
  return [
    '[databases]',
    ...schemas.map(
      (schema) =>
        `kyc_${schema} = host=${pg.hostname} port=${pg.port} dbname=${db} user=${user} password=${password} connect_query='SET search_path TO ${schema}, public'`,
    ),
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    // Local test runs only: the aliases log in as the user above whatever the client says.
    'auth_type = any',
    'pool_mode = transaction',
    'max_client_conn = 2000',
    'default_pool_size = 40',
    'ignore_startup_parameters = extra_float_digits,options',
    `logfile = ${path.join(dir, 'pgbouncer.log')}`,
    `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
    '',
  ].join('\n');
}

function postgresUser() {
  const id = (flag) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || !uid) throw new StackError('running as root, PgBouncer needs the "postgres" user');
  return { uid, gid };
}

/** Starts PgBouncer (not daemonized) and waits until it accepts connections. */
export async function startPgBouncer({ dir, port, postgresUrl, schemas }) {
  const found = spawnSync('pgbouncer', ['--version'], { encoding: 'utf8' });
  if (found.error) throw new StackError('pgbouncer was not found on PATH (Debian: apt-get install pgbouncer)');
  await assertPortFree(port, 'PgBouncer');
  await mkdir(dir, { recursive: true });
  const ini = path.join(dir, 'pgbouncer.ini');
  await writeFile(ini, pgbouncerIni({ postgresUrl, port, schemas, dir }));
  const out = createWriteStream(path.join(dir, 'stdout.log'), { flags: 'a' });
  let output = '';
  // PgBouncer refuses to run as root: as root it runs as the `postgres` user, as PostgreSQL does here.
  const asUser = process.getuid?.() === 0 ? postgresUser() : undefined;
  if (asUser) await chown(dir, asUser.uid, asUser.gid);
  const child = spawn('pgbouncer', [ini], { stdio: ['ignore', 'pipe', 'pipe'], ...(asUser ?? {}) });
  for (const s of [child.stdout, child.stderr])
    s.on('data', (d) => {
      out.write(d);
      output = (output + d).slice(-10_000);
    });
  let exited = null;
  child.on('exit', (code) => (exited = code));
  await waitFor(
    () =>
      new Promise((resolve, reject) => {
        if (exited !== null) return reject(new StackError(`pgbouncer exited (${exited}):\n${tail(output)}`));
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      }),
    { timeoutMs: 15_000, intervalMs: 100, what: 'PgBouncer' },
  );
  const pg = new URL(postgresUrl);
  return {
    /** The URL of a schema's alias. */
    urlOf: (schema) => `postgres://${pg.username}:${pg.password}@127.0.0.1:${port}/kyc_${schema}`,
    port,
    pid: child.pid,
    stop: async () => {
      if (exited !== null) return;
      await stopChild(child, 5_000);
      out.end();
    },
  };
}
