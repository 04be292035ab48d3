import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Batches of checks from an xlsx file: the batch (its column mapping, state, progress and report),
 * the uploaded file (service-local storage) and one row per spreadsheet row, unique per
 * (batch_id, row_number) with the check it created, so a restarted worker never creates a row twice.
 */
export class Batches1763770700000 implements MigrationInterface {
  name = 'Batches1763770700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE batches (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      service text NOT NULL,
      country text NOT NULL,
      type text NOT NULL,
      end_date date,
      frequency text,
      columns jsonb NOT NULL,
      status text NOT NULL,
      created_by text NOT NULL,
      key_version int NOT NULL,
      upload_expires_at timestamptz NOT NULL,
      file_uploaded_at timestamptz,
      file_size int,
      rows_total int NOT NULL DEFAULT 0,
      error text,
      report_format text,
      report_status text,
      report_requested_at timestamptz,
      report_generated_at timestamptz,
      report bytea,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      started_at timestamptz,
      finished_at timestamptz
    )`);
    await q.query(`CREATE INDEX batches_tenant_idx ON batches (tenant_id, created_at, id)`);
    await q.query(`CREATE TABLE batch_files (
      batch_id text PRIMARY KEY REFERENCES batches (id) ON DELETE CASCADE,
      tenant_id text NOT NULL,
      content bytea NOT NULL,
      created_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE TABLE batch_rows (
      batch_id text NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
      row_number int NOT NULL,
      tenant_id text NOT NULL,
      inputs jsonb NOT NULL,
      status text NOT NULL,
      check_id text,
      errors jsonb,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (batch_id, row_number)
    )`);
    await q.query(`CREATE INDEX batch_rows_check_idx ON batch_rows (check_id) WHERE check_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE batch_rows`);
    await q.query(`DROP TABLE batch_files`);
    await q.query(`DROP TABLE batches`);
  }
}
