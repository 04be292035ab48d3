import { createOneTimeCodeTables, dropOneTimeCodeTables } from '@kyc/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The console's schema: operators' sessions and the platform's one-time code tables (sign-in codes). */
export class CreateConsole1764300000000 implements MigrationInterface {
  name = 'CreateConsole1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE sessions (
      token_hash text PRIMARY KEY,
      tenant_id text NOT NULL,
      user_id text NOT NULL,
      username text NOT NULL,
      csrf_token text NOT NULL,
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      ended_at timestamptz
    )`);
    await q.query(`CREATE INDEX sessions_user_idx ON sessions (tenant_id, user_id)`);
    await q.query(`CREATE INDEX sessions_expires_idx ON sessions (expires_at)`);
    await createOneTimeCodeTables(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOneTimeCodeTables(q);
    await q.query(`DROP TABLE sessions`);
  }
}
