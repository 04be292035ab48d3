import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateProcessLogs1764060000000 implements MigrationInterface {
  name = 'CreateProcessLogs1764060000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE process_logs (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      process_id text,
      level text NOT NULL,
      message text NOT NULL,
      key_id text NOT NULL,
      created_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX process_logs_tenant_process_idx ON process_logs (tenant_id, process_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE process_logs`);
  }
}
