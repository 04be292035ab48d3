import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contacts and their properties; customer profiles with their identifiers, transactions, tags,
 * messaging lines and merges; segments and their computed members.
 */
export class CreateCustomers1764000000000 implements MigrationInterface {
  name = 'CreateCustomers1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE contact_properties (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      name text NOT NULL,
      type text NOT NULL,
      enum_values text[],
      hidden boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE UNIQUE INDEX contact_properties_name_idx ON contact_properties (tenant_id, lower(name))`);

    await q.query(`CREATE TABLE profiles (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      name text,
      first_name text,
      last_name text,
      country text,
      phone_number text,
      email text,
      document_number text,
      document_type text,
      birthday text,
      document_issue_date text,
      gender text,
      tags text[] NOT NULL DEFAULT '{}',
      info_updated_at timestamptz,
      merged_into text,
      transactions_count integer NOT NULL DEFAULT 0,
      checks_count integer NOT NULL DEFAULT 0,
      latest_check_score double precision,
      latest_check_status text,
      validations_count integer NOT NULL DEFAULT 0,
      failed_validations_count integer NOT NULL DEFAULT 0,
      latest_validation_status text,
      processes_count integer NOT NULL DEFAULT 0,
      latest_process_status text,
      chats_count integer NOT NULL DEFAULT 0,
      first_transaction_at timestamptz,
      last_transaction_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX profiles_tenant_created_idx ON profiles (tenant_id, created_at, id)`);
    await q.query(`CREATE INDEX profiles_tenant_id_idx ON profiles (tenant_id, id) WHERE merged_into IS NULL`);
    await q.query(`CREATE INDEX profiles_document_idx ON profiles (tenant_id, document_number)`);
    await q.query(`CREATE INDEX profiles_email_idx ON profiles (tenant_id, lower(email))`);
    await q.query(`CREATE INDEX profiles_phone_idx ON profiles (tenant_id, phone_number)`);

    // Identity resolution: each identifier (document, phone, e-mail) belongs to one live profile.
    await q.query(`CREATE TABLE profile_identifiers (
      tenant_id text NOT NULL,
      key text NOT NULL,
      kind text NOT NULL,
      profile_id text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, key)
    )`);
    await q.query(`CREATE INDEX profile_identifiers_profile_idx ON profile_identifiers (profile_id)`);

    await q.query(`CREATE TABLE profile_merges (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      profile_id text NOT NULL,
      merged_profile_id text NOT NULL,
      identifier text NOT NULL,
      merged_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX profile_merges_profile_idx ON profile_merges (tenant_id, profile_id)`);

    await q.query(`CREATE TABLE transactions (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      profile_id text NOT NULL,
      product text NOT NULL,
      source_id text NOT NULL,
      event_type text NOT NULL,
      status text,
      score double precision,
      occurred_at timestamptz NOT NULL,
      data jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE UNIQUE INDEX transactions_source_idx ON transactions (tenant_id, product, source_id)`);
    await q.query(`CREATE INDEX transactions_profile_idx ON transactions (profile_id, product, occurred_at)`);
    await q.query(`CREATE INDEX transactions_page_idx ON transactions (tenant_id, profile_id, created_at, id)`);

    await q.query(`CREATE TABLE tag_history (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      profile_id text NOT NULL,
      tag text NOT NULL,
      action text NOT NULL,
      source text NOT NULL,
      occurred_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX tag_history_profile_idx ON tag_history (tenant_id, profile_id, created_at, id)`);

    await q.query(`CREATE TABLE profile_lines (
      tenant_id text NOT NULL,
      profile_id text NOT NULL,
      waba_phone_number text NOT NULL,
      first_seen_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      PRIMARY KEY (profile_id, waba_phone_number)
    )`);

    await q.query(`CREATE TABLE contacts (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      phone_number text,
      external_id text,
      name text,
      email text,
      custom_property_values jsonb NOT NULL DEFAULT '{}',
      profile_id text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE UNIQUE INDEX contacts_phone_idx ON contacts (tenant_id, phone_number)`);
    await q.query(`CREATE UNIQUE INDEX contacts_external_idx ON contacts (tenant_id, external_id)`);
    await q.query(`CREATE INDEX contacts_tenant_created_idx ON contacts (tenant_id, created_at, id)`);

    await q.query(`CREATE TABLE segments (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      name text NOT NULL,
      description text,
      rule jsonb NOT NULL,
      compute_id text,
      compute_status text NOT NULL DEFAULT 'not_computed',
      compute_evaluation text,
      compute_fallback_reason text,
      compute_processed integer NOT NULL DEFAULT 0,
      compute_total integer NOT NULL DEFAULT 0,
      compute_matched integer NOT NULL DEFAULT 0,
      compute_cursor text,
      compute_error text,
      compute_requested_at timestamptz,
      compute_started_at timestamptz,
      compute_finished_at timestamptz,
      members_compute_id text,
      members_count integer NOT NULL DEFAULT 0,
      computed_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX segments_tenant_created_idx ON segments (tenant_id, created_at, id)`);

    // Members of a compute; the segment's members are those of its members_compute_id.
    await q.query(`CREATE TABLE segment_members (
      compute_id text NOT NULL,
      profile_id text NOT NULL,
      segment_id text NOT NULL,
      PRIMARY KEY (compute_id, profile_id)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'segment_members',
      'segments',
      'contacts',
      'profile_lines',
      'tag_history',
      'transactions',
      'profile_merges',
      'profile_identifiers',
      'profiles',
      'contact_properties',
    ])
      await q.query(`DROP TABLE ${table}`);
  }
}
