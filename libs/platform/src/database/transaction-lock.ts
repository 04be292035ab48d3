import { EntityManager } from 'typeorm';

/**
 * Serialises writers of the same logical keys for the rest of the caller's transaction (PostgreSQL
 * transaction-scoped advisory locks, released at commit or rollback). Keys are taken in sorted order, so two
 * transactions locking overlapping sets never deadlock. Use it where two transactions would otherwise each miss
 * the other's uncommitted rows (read-then-write across tables, limits counted before an insert).
 */
export async function lockForTransaction(manager: EntityManager, ...keys: string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort())
    await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
}
