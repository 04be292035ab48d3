import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rate limits' token buckets shared by a service's replicas (RateLimiterService), one row per
 * tenant and per API key. UNLOGGED: no WAL for a row written several times a second; after a
 * PostgreSQL crash the buckets start full.
 */
export class PlatformRateLimits1764950000000 implements MigrationInterface {
  name = 'PlatformRateLimits1764950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE UNLOGGED TABLE rate_limit_buckets (
      key text PRIMARY KEY,
      tokens double precision NOT NULL,
      per_second double precision NOT NULL,
      burst double precision NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rate_limit_buckets`);
  }
}
