import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The agent inbox's feed: the chat events of the last ENGAGEMENT_INBOX_REPLAY_MINUTES, each with a
 * monotonically increasing seq (the push channel's event id), written in seq order by the feed's
 * consumer (one event id once).
 */
export class EngagementInboxFeed1764300000000 implements MigrationInterface {
  name = 'EngagementInboxFeed1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE inbox_events (
      seq bigserial PRIMARY KEY,
      event_id text NOT NULL UNIQUE,
      tenant_id text NOT NULL,
      chat_id text NOT NULL,
      owner text,
      previous_owner text,
      type text NOT NULL,
      data jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX inbox_events_created_idx ON inbox_events (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS inbox_events`);
  }
}
