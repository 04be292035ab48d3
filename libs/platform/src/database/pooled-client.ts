import type { Pool, PoolClient } from 'pg';

/** The connection option that puts a service's schema first on the search_path (every pool of a service uses it). */
export const searchPathOption = (schema: string) => `-c search_path=${schema},public`;

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
