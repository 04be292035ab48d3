import { MigrationInterface, QueryRunner } from 'typeorm';

/** Flows, processes, and the web/sdk key inputs (grant, country, redirect URL, account id, ...). */
export class CreateFlowsProcesses1764050000000 implements MigrationInterface {
  name = 'CreateFlowsProcesses1764050000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE flows (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      name text NOT NULL,
      steps jsonb NOT NULL,
      redirect_url text,
      timeout_seconds int NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX flows_tenant_created_idx ON flows (tenant_id, created_at, id)`);
    await q.query(`ALTER TABLE api_keys
      ADD COLUMN country text,
      ADD COLUMN document_type text,
      ADD COLUMN redirect_url text,
      ADD COLUMN account_id text,
      ADD COLUMN emails jsonb,
      ADD COLUMN phones jsonb,
      ADD COLUMN billing_hub text`);
    await q.query(`CREATE TABLE processes (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      flow_id text NOT NULL,
      key_id text NOT NULL,
      user_id text NOT NULL,
      account_id text NOT NULL,
      status text NOT NULL,
      failure_status text,
      declined_reason text,
      expired_reason text,
      current_step int NOT NULL,
      steps jsonb NOT NULL,
      variables jsonb NOT NULL,
      phone_number text,
      device_info text,
      override_status text,
      override_status_history jsonb NOT NULL,
      timeout_attempts int NOT NULL,
      deadline timestamptz NOT NULL,
      finished_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      deleted_at timestamptz
    )`);
    await q.query(`CREATE UNIQUE INDEX processes_key_idx ON processes (key_id)`);
    await q.query(`CREATE INDEX processes_tenant_created_idx ON processes (tenant_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE processes`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN country, DROP COLUMN document_type, DROP COLUMN redirect_url,
      DROP COLUMN account_id, DROP COLUMN emails, DROP COLUMN phones, DROP COLUMN billing_hub`);
    await q.query(`DROP TABLE flows`);
  }
}
