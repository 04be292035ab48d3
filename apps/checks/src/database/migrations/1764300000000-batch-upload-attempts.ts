import { MigrationInterface, QueryRunner } from 'typeorm';

/** Files sent to a batch's upload link: each refused file counts, and CHECKS_BATCH_UPLOAD_ATTEMPTS spend the link. */
export class BatchUploadAttempts1764300000000 implements MigrationInterface {
  name = 'BatchUploadAttempts1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batches ADD COLUMN upload_attempts int NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batches DROP COLUMN upload_attempts`);
  }
}
