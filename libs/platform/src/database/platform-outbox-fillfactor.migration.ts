import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox's pages are filled to half by inserts (`fillfactor = 50`), so the relay's mark
 * (`published_at`) writes the row's new version on the same page. PostgreSQL then logs only the
 * bytes that changed instead of the whole row with its envelope: about 80 B of WAL per event
 * instead of about 800 (docs/benchmarks.md). It changes no row and takes no long lock: pages
 * written before keep their fill, new pages get it.
 */
export class PlatformOutboxFillfactor1795900000000 implements MigrationInterface {
  name = 'PlatformOutboxFillfactor1795900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox SET (fillfactor = 50)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox RESET (fillfactor)`);
  }
}
