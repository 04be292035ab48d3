import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The claim store's sources: finished validations of the validators suite (by account), and the link
 * between a person of pass and the validation accounts their identity processes used.
 */
export class ClaimSources1764070800000 implements MigrationInterface {
  name = 'ClaimSources1764070800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE account_validations (
        validation_id text PRIMARY KEY,
        tenant_id text NOT NULL,
        account_id text NOT NULL,
        type text NOT NULL,
        status text NOT NULL,
        country text,
        document_type text,
        manual_review_status text,
        subvalidations jsonb NOT NULL DEFAULT '[]',
        finished_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX account_validations_account_idx ON account_validations (tenant_id, account_id)`);
    await q.query(`
      CREATE TABLE user_accounts (
        tenant_id text NOT NULL,
        account_id text NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        linked_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, account_id)
      )`);
    await q.query(`CREATE INDEX user_accounts_user_idx ON user_accounts (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE user_accounts`);
    await q.query(`DROP TABLE account_validations`);
  }
}
