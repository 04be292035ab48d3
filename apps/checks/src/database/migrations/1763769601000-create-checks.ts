import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateChecks1763769601000 implements MigrationInterface {
  name = 'CreateChecks1763769601000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE checks (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      country text NOT NULL,
      type text NOT NULL,
      status text NOT NULL,
      inputs jsonb NOT NULL,
      input_hash text NOT NULL,
      custom_input text,
      report_id text,
      user_authorized boolean NOT NULL,
      score double precision NOT NULL DEFAULT -1,
      id_score double precision NOT NULL DEFAULT -1,
      homonym_score double precision NOT NULL DEFAULT -1,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX checks_tenant_created_idx ON checks (tenant_id, created_at, id)`);
    await q.query(`CREATE INDEX checks_dedup_idx ON checks (tenant_id, input_hash, created_at)`);
    await q.query(`CREATE INDEX checks_pending_idx ON checks (created_at) WHERE status = 'not_started'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE checks`);
  }
}
