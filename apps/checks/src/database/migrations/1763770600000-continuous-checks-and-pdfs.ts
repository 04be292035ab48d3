import { MigrationInterface, QueryRunner } from 'typeorm';

/** Continuous checks with their run history, and generated check PDFs (bytea, one per language). */
export class ContinuousChecksAndPdfs1763770600000 implements MigrationInterface {
  name = 'ContinuousChecksAndPdfs1763770600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE continuous_checks (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      check_id text NOT NULL,
      last_check_id text NOT NULL,
      frequency text NOT NULL,
      end_date date NOT NULL,
      status text NOT NULL,
      api_key_version int NOT NULL DEFAULT 0,
      score_status text NOT NULL DEFAULT 'new',
      counter int NOT NULL DEFAULT 0,
      anchor_at timestamptz NOT NULL,
      next_run_at timestamptz,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX continuous_checks_tenant_created_idx ON continuous_checks (tenant_id, created_at, id)`);
    await q.query(`CREATE TABLE continuous_check_runs (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      continuous_check_id text NOT NULL REFERENCES continuous_checks (id) ON DELETE CASCADE,
      counter int NOT NULL,
      check_id text,
      previous_check_id text NOT NULL,
      due_at timestamptz NOT NULL,
      status text NOT NULL,
      score double precision,
      previous_score double precision,
      score_change text,
      changes jsonb,
      message text,
      created_at timestamptz NOT NULL,
      finished_at timestamptz,
      UNIQUE (continuous_check_id, due_at)
    )`);
    await q.query(
      `CREATE INDEX continuous_check_runs_history_idx ON continuous_check_runs (tenant_id, continuous_check_id, created_at, id)`,
    );
    await q.query(`CREATE INDEX continuous_check_runs_check_idx ON continuous_check_runs (check_id)`);
    await q.query(`CREATE TABLE check_pdfs (
      tenant_id text NOT NULL,
      check_id text NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
      status text NOT NULL,
      pdf_es bytea,
      pdf_en bytea,
      pdf_pt bytea,
      message text,
      requested_at timestamptz NOT NULL,
      generated_at timestamptz,
      PRIMARY KEY (tenant_id, check_id)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE check_pdfs`);
    await q.query(`DROP TABLE continuous_check_runs`);
    await q.query(`DROP TABLE continuous_checks`);
  }
}
