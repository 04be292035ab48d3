import { MigrationInterface, QueryRunner } from 'typeorm';

/** Messaging lines, provider credentials, outbounds and their quality history, media, messages, inbounds, sessions, campaigns. */
export class EngagementMessaging1764000000000 implements MigrationInterface {
  name = 'EngagementMessaging1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE provider_credentials (
      tenant_id text PRIMARY KEY,
      waba_id text NOT NULL UNIQUE,
      sealed text NOT NULL,
      verify_token_hash text NOT NULL,
      subscribed_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX provider_credentials_verify_idx ON provider_credentials (verify_token_hash)`);
    await q.query(`CREATE TABLE lines (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      waba_id text NOT NULL,
      phone text NOT NULL,
      name text,
      verified_name text,
      quality text NOT NULL,
      default_flow_id text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (tenant_id, phone))`);
    await q.query(`CREATE TABLE media (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      line_id text NOT NULL,
      media_type text NOT NULL,
      mime_type text NOT NULL,
      size_bytes integer NOT NULL,
      created_at timestamptz NOT NULL)`);
    await q.query(`CREATE TABLE outbounds (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      name text NOT NULL,
      line_phone text NOT NULL,
      line_id text NOT NULL,
      waba_id text NOT NULL,
      category text NOT NULL,
      language_code text NOT NULL,
      template_type text NOT NULL,
      is_notification boolean NOT NULL,
      media_id text,
      content text,
      header_text text,
      footer text,
      code_expiration_minutes integer,
      examples jsonb NOT NULL,
      buttons jsonb NOT NULL,
      variables jsonb NOT NULL,
      default_flow_id text,
      status text NOT NULL,
      quality text NOT NULL,
      status_reason text,
      provider_name text NOT NULL,
      provider_template_id text,
      revision integer NOT NULL,
      status_changed_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX outbounds_tenant_page_idx ON outbounds (tenant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX outbounds_provider_idx ON outbounds (waba_id, provider_name)`);
    await q.query(`CREATE INDEX outbounds_flagged_idx ON outbounds (status) WHERE status = 'FLAGGED'`);
    await q.query(`CREATE TABLE outbound_quality_history (
      id bigserial PRIMARY KEY,
      tenant_id text NOT NULL,
      outbound_id text NOT NULL,
      quality text NOT NULL,
      at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX outbound_quality_history_idx ON outbound_quality_history (outbound_id, at)`);
    await q.query(`CREATE TABLE messages (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      direction text NOT NULL,
      line_id text NOT NULL,
      line_phone text NOT NULL,
      phone text NOT NULL,
      account_id text,
      outbound_id text,
      flow_id text,
      campaign_id text,
      text text,
      "values" jsonb,
      status text NOT NULL,
      error text,
      provider_message_id text UNIQUE,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX messages_tenant_idx ON messages (tenant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE TABLE inbounds (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      flow_id text NOT NULL,
      activation_message text NOT NULL,
      line_phone text NOT NULL,
      activation_link text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (tenant_id, line_phone, activation_message))`);
    await q.query(`CREATE INDEX inbounds_page_idx ON inbounds (tenant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE TABLE sessions (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      line_phone text NOT NULL,
      phone text NOT NULL,
      flow_id text NOT NULL,
      inbound_id text,
      status text NOT NULL,
      started_at timestamptz NOT NULL,
      finished_at timestamptz)`);
    await q.query(`CREATE INDEX sessions_open_idx ON sessions (tenant_id, line_phone, phone) WHERE status = 'open'`);
    await q.query(`CREATE TABLE campaigns (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      outbound_id text NOT NULL,
      flow_id text,
      status text NOT NULL,
      total integer NOT NULL,
      rate integer NOT NULL,
      created_at timestamptz NOT NULL,
      finished_at timestamptz)`);
    await q.query(`CREATE TABLE campaign_recipients (
      campaign_id text NOT NULL,
      seq integer NOT NULL,
      tenant_id text NOT NULL,
      phone text NOT NULL,
      account_id text,
      "values" jsonb NOT NULL,
      status text NOT NULL,
      message_id text UNIQUE,
      claimed_at timestamptz,
      error text,
      PRIMARY KEY (campaign_id, seq))`);
    await q.query(`CREATE INDEX campaign_recipients_work_idx ON campaign_recipients (campaign_id, status, seq)`);
    await q.query(`CREATE TABLE webhook_events (
      digest text PRIMARY KEY,
      received_at timestamptz NOT NULL,
      processed_at timestamptz)`);
    await q.query(
      `CREATE INDEX webhook_events_unprocessed_idx ON webhook_events (received_at) WHERE processed_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'webhook_events',
      'campaign_recipients',
      'campaigns',
      'sessions',
      'inbounds',
      'messages',
      'outbound_quality_history',
      'outbounds',
      'media',
      'lines',
      'provider_credentials',
    ])
      await q.query(`DROP TABLE ${table}`);
  }
}
