import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tables every service schema has: the transactional outbox, the processed-message inbox,
 * parked (poison) messages and stored idempotent responses. Each app lists this migration first.
 */
export class PlatformTables1763769600000 implements MigrationInterface {
  name = 'PlatformTables1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE outbox (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL,
      topic text NOT NULL,
      message_key text NOT NULL,
      type text NOT NULL,
      tenant_id text,
      envelope jsonb,
      headers jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz
    )`);
    await q.query(`CREATE INDEX outbox_unpublished_idx ON outbox (seq) WHERE published_at IS NULL`);
    await q.query(`CREATE TABLE processed_messages (
      event_id text NOT NULL,
      consumer text NOT NULL,
      processed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (event_id, consumer)
    )`);
    await q.query(`CREATE TABLE parked_messages (
      id bigserial PRIMARY KEY,
      consumer text NOT NULL,
      topic text NOT NULL,
      event_id text,
      message jsonb,
      error text NOT NULL,
      attempts int NOT NULL,
      parked_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE idempotency_keys (
      tenant_id text NOT NULL,
      key text NOT NULL,
      request_hash text NOT NULL,
      status_code int,
      response jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, key)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
    await q.query(`DROP TABLE parked_messages`);
    await q.query(`DROP TABLE processed_messages`);
    await q.query(`DROP TABLE outbox`);
  }
}
