import { createOneTimeCodeTables, dropOneTimeCodeTables } from '@kyc/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in codes move to the platform's one-time codes (attempts counted per code and per person,
 * lockouts, limits on codes sent): its tables replace sign_in_codes. Codes pending at the upgrade
 * (ten minutes at most) are dropped; their people ask for a new one.
 */
export class OneTimeCodes1764081000000 implements MigrationInterface {
  name = 'OneTimeCodes1764081000000';

  async up(q: QueryRunner): Promise<void> {
    await createOneTimeCodeTables(q);
    await q.query(`DROP TABLE sign_in_codes`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sign_in_codes (
        id uuid PRIMARY KEY,
        interaction_uid text NOT NULL,
        email text NOT NULL,
        code_hash text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sign_in_codes_interaction_idx ON sign_in_codes (interaction_uid, created_at)`);
    await dropOneTimeCodeTables(q);
  }
}
