import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateLinkDeliveries1764100000001 implements MigrationInterface {
  name = 'CreateLinkDeliveries1764100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE link_deliveries (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      user_id text NOT NULL,
      flow_id text NOT NULL,
      key_id text NOT NULL,
      process_id text,
      channel text NOT NULL,
      lang text NOT NULL,
      recipient text NOT NULL,
      outbound_id text,
      variables jsonb NOT NULL,
      link text,
      status text NOT NULL,
      error text,
      message_id text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX link_deliveries_tenant_created_idx ON link_deliveries (tenant_id, created_at)`);
    await q.query(`CREATE TABLE sandbox_phone_messages (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      delivery_id text NOT NULL,
      phone_number text NOT NULL,
      channel text NOT NULL,
      text text NOT NULL,
      created_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX sandbox_phone_messages_tenant_idx ON sandbox_phone_messages (tenant_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_phone_messages`);
    await q.query(`DROP TABLE link_deliveries`);
  }
}
