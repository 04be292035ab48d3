import { createOneTimeCodeTables, dropOneTimeCodeTables } from '@kyc/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * E-mail and phone OTPs move to the platform's one-time codes (attempts counted per code and per
 * account, lockouts, limits on codes sent per address): its tables replace validations.otp_hash.
 * OTP validations pending at the upgrade (ten minutes at most) have no code there: a guess expires them.
 */
export class OneTimeCodes1764210000000 implements MigrationInterface {
  name = 'OneTimeCodes1764210000000';

  async up(q: QueryRunner): Promise<void> {
    await createOneTimeCodeTables(q);
    await q.query(`ALTER TABLE validations DROP COLUMN otp_hash`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE validations ADD COLUMN otp_hash text`);
    await dropOneTimeCodeTables(q);
  }
}
