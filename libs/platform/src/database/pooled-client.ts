import { Client as PgClient, type Pool, type PoolClient } from 'pg';

/** The connection option that puts a service's schema first on the search_path (every pool of a service uses it). */
export const searchPathOption = (schema: string) => `-c search_path=${schema},public`;

let unnamed = false;
/**
 * Through a transaction-mode pooler a named prepared statement prepared on one server connection
 * is missing on the next: every query of the process (pg's Client, the platform's preparedQuery,
 * any app's `{ name, text, values }`) is sent unnamed from now on. Called once at start when
 * DB_TRANSACTION_POOLER is set.
 */
export function sendStatementsUnnamed(): void {
  if (unnamed) return;
  unnamed = true;
  const proto = PgClient.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, config: unknown, ...rest: unknown[]) {
    if (config && typeof config === 'object' && 'name' in config && (config as { name?: unknown }).name) {
      const { name: _name, ...plain } = config as Record<string, unknown>;
      return query.call(this, plain, ...rest);
    }
    return query.call(this, config, ...rest);
  };
}

/**
 * Runs `work` on a client of a pg pool, which sends its own BEGIN and COMMIT (so it can fold
 * them into its statements and save round trips). When `work` fails its transaction is rolled
 * back; a client that cannot roll back is dropped from the pool, not reused mid-transaction.
 */
export async function withClient<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let result: T;
  try {
    result = await work(client);
  } catch (err) {
    const rolledBack = await client.query('ROLLBACK').then(
      () => true,
      () => false,
    );
    client.release(rolledBack ? undefined : (err as Error));
    throw err;
  }
  client.release();
  return result;
}
