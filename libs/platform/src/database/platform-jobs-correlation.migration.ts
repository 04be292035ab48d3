import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The id of the request that queued a job (and so of every event and job the job causes): the
 * job runs with it as its correlation id, so `checks.check.finished` carries the creating
 * request's id. Nullable without a default: adding it rewrites no row.
 */
export class PlatformJobsCorrelation1795700000000 implements MigrationInterface {
  name = 'PlatformJobsCorrelation1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN correlation_id text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs DROP COLUMN correlation_id`);
  }
}
