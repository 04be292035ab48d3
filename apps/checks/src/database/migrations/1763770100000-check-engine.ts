import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The check engine: results on the check row, one row per database of a check (its status, answer
 * and details), collector runs (health), custom types, settings and encrypted collector credentials.
 */
export class CheckEngine1763770100000 implements MigrationInterface {
  name = 'CheckEngine1763770100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE checks
      ADD COLUMN region text,
      ADD COLUMN previous_check text,
      ADD COLUMN weights jsonb,
      ADD COLUMN settings jsonb,
      ADD COLUMN result jsonb,
      ADD COLUMN started_at timestamptz,
      ADD COLUMN deadline_at timestamptz,
      ADD COLUMN finished_at timestamptz,
      ADD COLUMN rule_depth int NOT NULL DEFAULT 0,
      ADD COLUMN requested_by_execution text`);
    await q.query(`DROP INDEX IF EXISTS checks_pending_idx`);
    await q.query(
      `CREATE INDEX checks_tenant_report_idx ON checks (tenant_id, report_id, created_at, id) WHERE report_id IS NOT NULL`,
    );

    await q.query(`CREATE TABLE check_databases (
      id text PRIMARY KEY,
      check_id text NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
      tenant_id text NOT NULL,
      database_id text NOT NULL,
      database_name text NOT NULL,
      country text NOT NULL,
      data_sets jsonb NOT NULL,
      status text NOT NULL,
      search_by text,
      invalid_inputs jsonb,
      message text,
      answer jsonb,
      reference text NOT NULL UNIQUE,
      attempts int NOT NULL DEFAULT 0,
      requested_at timestamptz,
      expected_at timestamptz,
      answered_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (check_id, database_id)
    )`);
    await q.query(`CREATE INDEX check_databases_check_idx ON check_databases (tenant_id, check_id, created_at, id)`);

    await q.query(`CREATE TABLE collector_runs (
      id bigserial PRIMARY KEY,
      database_id text NOT NULL,
      country text NOT NULL,
      tenant_id text NOT NULL,
      check_id text NOT NULL,
      outcome text NOT NULL,
      latency_ms bigint NOT NULL,
      finished_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX collector_runs_country_idx ON collector_runs (country, finished_at)`);

    await q.query(`CREATE TABLE custom_types (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      country text NOT NULL,
      type text NOT NULL,
      weights jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (tenant_id, country, type)
    )`);
    await q.query(`CREATE INDEX custom_types_tenant_idx ON custom_types (tenant_id, created_at, id)`);

    await q.query(`CREATE TABLE check_settings (
      tenant_id text PRIMARY KEY,
      max_duration text,
      max_duration_minutes int,
      names_matching_type text NOT NULL,
      retries boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);

    await q.query(`CREATE TABLE collector_credentials (
      tenant_id text NOT NULL,
      database_id text NOT NULL,
      username text NOT NULL,
      secret text NOT NULL,
      has_complements boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, database_id)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE collector_credentials`);
    await q.query(`DROP TABLE check_settings`);
    await q.query(`DROP TABLE custom_types`);
    await q.query(`DROP TABLE collector_runs`);
    await q.query(`DROP TABLE check_databases`);
    await q.query(`DROP INDEX IF EXISTS checks_tenant_report_idx`);
    await q.query(`CREATE INDEX checks_pending_idx ON checks (created_at) WHERE status = 'not_started'`);
    await q.query(`ALTER TABLE checks DROP COLUMN region, DROP COLUMN previous_check, DROP COLUMN weights, DROP COLUMN settings, DROP COLUMN result,
      DROP COLUMN started_at, DROP COLUMN deadline_at, DROP COLUMN finished_at, DROP COLUMN rule_depth, DROP COLUMN requested_by_execution`);
  }
}
