import { MigrationInterface, QueryRunner } from 'typeorm';

/** CIBA approvals: staged attachments (the sandbox object store) and the outcome of each decided request. */
export class Approvals1764063600000 implements MigrationInterface {
  name = 'Approvals1764063600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE approval_attachments (
        s3_key text PRIMARY KEY,
        client_id text NOT NULL,
        login_hint text NOT NULL,
        file_name text NOT NULL,
        content_type text NOT NULL,
        upload_expires_at timestamptz NOT NULL,
        content bytea,
        size integer,
        uploaded_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE approval_outcomes (
        auth_req_id text PRIMARY KEY,
        client_id text NOT NULL,
        decision text NOT NULL CHECK (decision IN ('approved', 'declined')),
        form_data jsonb NOT NULL DEFAULT '{}',
        decided_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE approval_outcomes`);
    await q.query(`DROP TABLE approval_attachments`);
  }
}
