import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateApiKeys1763769603000 implements MigrationInterface {
  name = 'CreateApiKeys1763769603000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE api_keys (
      id text PRIMARY KEY,
      tenant_id text NOT NULL,
      user_id text NOT NULL,
      name text,
      key_type text NOT NULL,
      version int NOT NULL,
      "grant" text,
      flow_id text,
      expires_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX api_keys_tenant_created_idx ON api_keys (tenant_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE api_keys`);
  }
}
