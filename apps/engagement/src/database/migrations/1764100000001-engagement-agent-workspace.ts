import { MigrationInterface, QueryRunner } from 'typeorm';

/** The agent workspace: agents, their settings, chats and activities, assignment rulesets, agent templates, exports. */
export class EngagementAgentWorkspace1764100000001 implements MigrationInterface {
  name = 'EngagementAgentWorkspace1764100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE agents (
      tenant_id text NOT NULL,
      email text NOT NULL,
      user_id text NOT NULL,
      status text NOT NULL,
      capacity integer,
      groups text[] NOT NULL DEFAULT '{}',
      active_chats integer NOT NULL DEFAULT 0 CHECK (active_chats >= 0),
      last_assigned_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, email))`);
    await q.query(`CREATE INDEX agents_online_idx ON agents (tenant_id, status, active_chats)`);
    await q.query(`CREATE TABLE agent_settings (
      tenant_id text PRIMARY KEY,
      default_capacity integer NOT NULL,
      capacity_enabled boolean NOT NULL,
      ruleset_strategy text NOT NULL,
      updated_at timestamptz NOT NULL)`);
    await q.query(`CREATE TABLE chats (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      line_id text NOT NULL,
      line_phone text NOT NULL,
      queue text NOT NULL,
      contact_phone text NOT NULL,
      contact_name text,
      status text NOT NULL,
      owner text,
      tags text[] NOT NULL DEFAULT '{}',
      enqueued_at timestamptz,
      assigned_at timestamptz,
      closed_at timestamptz,
      last_user_message_at timestamptz,
      last_activity_at timestamptz NOT NULL,
      last_actor_type text NOT NULL,
      last_activity_type text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL)`);
    // One open chat per conversation (line and user).
    await q.query(
      `CREATE UNIQUE INDEX chats_open_conversation_idx ON chats (tenant_id, line_id, contact_phone) WHERE status = 'open'`,
    );
    await q.query(
      `CREATE INDEX chats_queue_idx ON chats (tenant_id, enqueued_at) WHERE status = 'open' AND owner IS NULL`,
    );
    await q.query(`CREATE INDEX chats_activity_idx ON chats (tenant_id, last_activity_at DESC, id DESC)`);
    await q.query(`CREATE INDEX chats_owner_idx ON chats (tenant_id, owner, last_activity_at DESC)`);
    await q.query(`CREATE INDEX chats_created_idx ON chats (tenant_id, created_at)`);
    await q.query(`CREATE TABLE chat_activities (
      id text PRIMARY KEY,
      seq bigserial NOT NULL,
      tenant_id text NOT NULL,
      chat_id text NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
      actor_type text NOT NULL,
      actor text,
      activity_type text NOT NULL,
      text text,
      message_id text,
      message_status text,
      chat_status text,
      owner text,
      created_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX chat_activities_chat_idx ON chat_activities (chat_id, seq)`);
    await q.query(
      `CREATE INDEX chat_activities_message_idx ON chat_activities (message_id) WHERE message_id IS NOT NULL`,
    );
    await q.query(`CREATE TABLE agent_templates (
      tenant_id text NOT NULL,
      name text NOT NULL,
      template_type text NOT NULL,
      content text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, name))`);
    await q.query(`CREATE TABLE chat_exports (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      name text,
      export_type text NOT NULL,
      export_format text NOT NULL,
      language text NOT NULL,
      chat_id text,
      range_start timestamptz NOT NULL,
      range_end timestamptz NOT NULL,
      requested_by text NOT NULL,
      status text NOT NULL,
      rows integer,
      content text,
      error text,
      created_at timestamptz NOT NULL,
      completed_at timestamptz)`);
    await q.query(`CREATE INDEX chat_exports_list_idx ON chat_exports (tenant_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['chat_exports', 'agent_templates', 'chat_activities', 'chats', 'agent_settings', 'agents'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
