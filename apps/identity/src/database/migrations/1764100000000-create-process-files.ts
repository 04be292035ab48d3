import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateProcessFiles1764100000000 implements MigrationInterface {
  name = 'CreateProcessFiles1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE process_files (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      process_id text NOT NULL,
      kind text NOT NULL,
      status text NOT NULL,
      content_type text,
      content bytea,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE UNIQUE INDEX process_files_process_kind_idx ON process_files (process_id, kind)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE process_files`);
  }
}
