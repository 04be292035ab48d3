import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The jobs' de-duplication key as a partial unique index over the jobs that have one: most jobs
 * have none, and the full UNIQUE constraint indexed their NULLs too (one more index entry and its
 * WAL record per job, for nothing: NULLs never conflict). Inserts name the index's predicate in
 * their ON CONFLICT (job-queue.sql.ts), so they keep skipping a duplicate key as before.
 */
export class PlatformJobsDedupePartial1795800000000 implements MigrationInterface {
  name = 'PlatformJobsDedupePartial1795800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE UNIQUE INDEX jobs_dedupe_key_idx ON jobs (dedupe_key) WHERE dedupe_key IS NOT NULL`);
    await q.query(`ALTER TABLE jobs DROP CONSTRAINT jobs_dedupe_key_key`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD CONSTRAINT jobs_dedupe_key_key UNIQUE (dedupe_key)`);
    await q.query(`DROP INDEX jobs_dedupe_key_idx`);
  }
}
