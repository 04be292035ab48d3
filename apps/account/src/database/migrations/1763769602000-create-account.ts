import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAccount1763769602000 implements MigrationInterface {
  name = 'CreateAccount1763769602000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE tenants (
      id text PRIMARY KEY,
      name text NOT NULL,
      billing_hubs text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE TABLE roles (
      tenant_id text NOT NULL,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      permissions text[] NOT NULL,
      access_rules jsonb NOT NULL DEFAULT '[]',
      built_in boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, name)
    )`);
    await q.query(`CREATE TABLE users (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL,
      username text NOT NULL,
      role text NOT NULL,
      status text NOT NULL,
      country text,
      phone_number text,
      language text,
      billing_hub text,
      display_name text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE UNIQUE INDEX users_tenant_username_uq ON users (tenant_id, username)`);
    await q.query(`CREATE TABLE finished_checks (
      event_id text PRIMARY KEY,
      tenant_id text NOT NULL,
      check_id text NOT NULL,
      status text NOT NULL,
      score double precision NOT NULL,
      payload jsonb NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX finished_checks_check_idx ON finished_checks (tenant_id, check_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE finished_checks`);
    await q.query(`DROP TABLE users`);
    await q.query(`DROP TABLE roles`);
    await q.query(`DROP TABLE tenants`);
  }
}
