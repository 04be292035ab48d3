import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The validators suite: accounts, enrollments, validations, their media (bytea, deleted with
 * them), the tenants' validator configuration, operator-enabled features and the sandbox phone
 * provider's delivered messages.
 */
export class ValidatorsSuite1764050000000 implements MigrationInterface {
  name = 'ValidatorsSuite1764050000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE validator_accounts (
      tenant_id text NOT NULL,
      account_id text NOT NULL,
      email text, first_name text, last_name text, phone_number text, country text,
      document_number text, document_type text, document_issue_date text, facebook_user text, twitter_user text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, account_id)
    )`);
    await q.query(`CREATE INDEX validator_accounts_page_idx ON validator_accounts (tenant_id, created_at, account_id)`);
    await q.query(`CREATE TABLE enrollments (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      account_id text NOT NULL,
      type text NOT NULL,
      status text NOT NULL,
      reason text, country text, phone_number text, phone_type text, email text, confirmation text, fraud_reason text,
      face_descriptor jsonb,
      validation_id text,
      upload_expires_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      finished_at timestamptz
    )`);
    await q.query(`CREATE INDEX enrollments_account_idx ON enrollments (tenant_id, account_id, created_at)`);
    await q.query(
      `CREATE UNIQUE INDEX enrollments_phone_type_idx ON enrollments (tenant_id, account_id, phone_type) WHERE type = 'phone-verification' AND status <> 'failure'`,
    );
    await q.query(
      `CREATE INDEX enrollments_blocklist_idx ON enrollments (tenant_id) WHERE type = 'face-search' AND status = 'success'`,
    );
    await q.query(`CREATE TABLE validations (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      account_id text NOT NULL,
      type text NOT NULL,
      status text NOT NULL,
      failure_status text, declined_reason text, expired_reason text, failure_reason text,
      manual_review_status text NOT NULL,
      inputs jsonb NOT NULL,
      settings jsonb NOT NULL,
      outcome jsonb,
      custom_input text, country text, document_type text, enrollment_id text, retry_of_id text,
      retry_number int NOT NULL DEFAULT 0,
      attempts_left int,
      otp_hash text,
      expires_at timestamptz NOT NULL,
      process_id text, flow_id text, ip_address text,
      created_by text NOT NULL,
      media_complete_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      finished_at timestamptz,
      deleted_at timestamptz
    )`);
    await q.query(`CREATE INDEX validations_page_idx ON validations (tenant_id, created_at, id)`);
    await q.query(`CREATE INDEX validations_account_idx ON validations (tenant_id, account_id, created_at)`);
    await q.query(
      `CREATE INDEX validations_review_idx ON validations (created_at) WHERE manual_review_status = 'pending' AND status = 'pending'`,
    );
    await q.query(`CREATE TABLE media (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      owner_kind text NOT NULL,
      owner_id text NOT NULL,
      slot text NOT NULL,
      content_type text,
      size int,
      data bytea,
      uploaded_at timestamptz,
      created_at timestamptz NOT NULL,
      UNIQUE (owner_kind, owner_id, slot)
    )`);
    await q.query(`CREATE TABLE validator_configs (
      tenant_id text NOT NULL,
      validator text NOT NULL,
      settings jsonb NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, validator)
    )`);
    await q.query(`CREATE TABLE tenant_features (
      tenant_id text PRIMARY KEY,
      confirmation_none_authorized_at timestamptz,
      face_manual_review boolean NOT NULL DEFAULT false,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE TABLE sandbox_phone_messages (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      phone_number text NOT NULL,
      channel text NOT NULL,
      text text NOT NULL,
      validation_id text NOT NULL,
      created_at timestamptz NOT NULL
    )`);
    await q.query(
      `CREATE INDEX sandbox_phone_messages_idx ON sandbox_phone_messages (tenant_id, phone_number, created_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'sandbox_phone_messages',
      'tenant_features',
      'validator_configs',
      'media',
      'validations',
      'enrollments',
      'validator_accounts',
    ])
      await q.query(`DROP TABLE ${table}`);
  }
}
