import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox's envelope as `json`, the JSON text the service wrote, instead of `jsonb`: the relay
 * sends that text as is, so the binary form only cost the conversion on insert, the conversion
 * back to text on every relay pass and about 10 % more bytes per row (and its WAL). Queries that
 * read fields of it (`envelope->>'id'`) work on both.
 */
export class PlatformOutboxJson1795800000001 implements MigrationInterface {
  name = 'PlatformOutboxJson1795800000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox ALTER COLUMN envelope TYPE json USING envelope::json`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox ALTER COLUMN envelope TYPE jsonb USING envelope::jsonb`);
  }
}
