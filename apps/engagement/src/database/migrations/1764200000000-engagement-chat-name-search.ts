import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Chat search by contact name or phone (a case-insensitive substring) on trigram GIN indexes
 * instead of a scan of the tenant's chats. pg_trgm ships with PostgreSQL (contrib; the embedded
 * PostgreSQL of the tests has it) and is a trusted extension: the database owner may create it.
 *
 * The extension is installed once per database, in `public`, so that every service schema (and
 * the test suites' schemas) shares it and dropping one schema never drops it; the operator class
 * is named by the schema the extension really lives in. Creation is serialised by a transaction
 * lock, as services of several schemas may migrate the same database at once.
 */
export class EngagementChatNameSearch1764200000000 implements MigrationInterface {
  name = 'EngagementChatNameSearch1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`SELECT pg_advisory_xact_lock(hashtext('extension:pg_trgm'))`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`);
    const rows = (await q.query(
      `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname = 'pg_trgm'`,
    )) as { schema: string }[];
    const opclass = `"${rows[0].schema.replace(/"/g, '""')}".gin_trgm_ops`;
    await q.query(`CREATE INDEX chats_contact_name_trgm_idx ON chats USING gin (contact_name ${opclass})`);
    await q.query(`CREATE INDEX chats_contact_phone_trgm_idx ON chats USING gin (contact_phone ${opclass})`);
  }

  /** Drops the indexes; the extension stays, as other schemas of the database may use it. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS chats_contact_phone_trgm_idx`);
    await q.query(`DROP INDEX IF EXISTS chats_contact_name_trgm_idx`);
  }
}
