import { MigrationInterface, QueryRunner } from 'typeorm';

/** The durable job queue of a service schema (see JobQueueService). */
export class PlatformJobs1763769700000 implements MigrationInterface {
  name = 'PlatformJobs1763769700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE jobs (
      id bigserial PRIMARY KEY,
      queue text NOT NULL,
      tenant_id text,
      payload jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      attempts int NOT NULL DEFAULT 0,
      max_attempts int NOT NULL,
      run_at timestamptz NOT NULL,
      locked_until timestamptz,
      dedupe_key text UNIQUE,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )`);
    await q.query(`CREATE INDEX jobs_due_idx ON jobs (queue, run_at) WHERE status IN ('pending', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE jobs`);
  }
}
