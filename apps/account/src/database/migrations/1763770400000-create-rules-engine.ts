import { MigrationInterface, QueryRunner } from 'typeorm';

/** The business-rules engine: rules (versioned), actions, action env vars, executions, signing secrets. */
export class CreateRulesEngine1763770400000 implements MigrationInterface {
  name = 'CreateRulesEngine1763770400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE bre_rules (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      name text NOT NULL,
      event_type text NOT NULL,
      condition jsonb NOT NULL,
      version int NOT NULL,
      created_by text NOT NULL,
      updated_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX bre_rules_tenant_created_idx ON bre_rules (tenant_id, created_at, id)`);
    // Every version of every rule, the current one included; executions name the version that ran.
    await q.query(`CREATE TABLE bre_rule_versions (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL,
      rule_id text NOT NULL,
      version int NOT NULL,
      name text NOT NULL,
      event_type text NOT NULL,
      condition jsonb NOT NULL,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      UNIQUE (rule_id, version)
    )`);
    await q.query(`CREATE INDEX bre_rule_versions_rule_idx ON bre_rule_versions (tenant_id, rule_id, created_at, id)`);
    await q.query(`CREATE TABLE bre_actions (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      rule_id text NOT NULL REFERENCES bre_rules (id) ON DELETE CASCADE,
      name text NOT NULL,
      type text NOT NULL,
      status text NOT NULL,
      config jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX bre_actions_rule_idx ON bre_actions (tenant_id, rule_id, created_at, id)`);
    await q.query(`CREATE TABLE bre_action_envs (
      action_id text NOT NULL REFERENCES bre_actions (id) ON DELETE CASCADE,
      tenant_id text NOT NULL,
      name text NOT NULL,
      is_secret boolean NOT NULL,
      value text,
      sealed_value text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (action_id, name),
      CONSTRAINT bre_action_envs_secret_sealed CHECK (CASE WHEN is_secret THEN value IS NULL AND sealed_value IS NOT NULL ELSE sealed_value IS NULL AND value IS NOT NULL END)
    )`);
    await q.query(`CREATE TABLE bre_executions (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      rule_id text NOT NULL,
      rule_version int NOT NULL,
      action_id text NOT NULL,
      action_type text NOT NULL,
      event_id text NOT NULL,
      check_id text,
      depth int NOT NULL DEFAULT 0,
      outcome text NOT NULL,
      attempts int NOT NULL DEFAULT 0,
      response_status int,
      error text,
      created_check_id text,
      created_at timestamptz NOT NULL,
      started_at timestamptz,
      finished_at timestamptz,
      updated_at timestamptz NOT NULL,
      CONSTRAINT bre_executions_event_action_uq UNIQUE (event_id, action_id)
    )`);
    await q.query(`CREATE INDEX bre_executions_tenant_created_idx ON bre_executions (tenant_id, created_at, id)`);
    await q.query(`CREATE INDEX bre_executions_rule_idx ON bre_executions (tenant_id, rule_id, created_at, id)`);
    await q.query(`CREATE INDEX bre_executions_action_idx ON bre_executions (tenant_id, action_id, created_at, id)`);
    // Bumped in the transaction of every rule or action change: replicas reload a tenant's compiled rules when it moves.
    await q.query(`CREATE TABLE bre_tenant_state (
      tenant_id text PRIMARY KEY,
      rules_version bigint NOT NULL
    )`);
    await q.query(`CREATE TABLE bre_signing_secrets (
      tenant_id text PRIMARY KEY,
      sealed_secret text NOT NULL,
      sealed_previous_secret text,
      previous_valid_until timestamptz,
      created_at timestamptz NOT NULL,
      rotated_at timestamptz
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE bre_signing_secrets`);
    await q.query(`DROP TABLE bre_tenant_state`);
    await q.query(`DROP TABLE bre_executions`);
    await q.query(`DROP TABLE bre_action_envs`);
    await q.query(`DROP TABLE bre_actions`);
    await q.query(`DROP TABLE bre_rule_versions`);
    await q.query(`DROP TABLE bre_rules`);
  }
}
