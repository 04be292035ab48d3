import { MigrationInterface, QueryRunner } from 'typeorm';

/** Validations done outside pass and written by allow-listed applications (append-only). */
export class ExternalValidations1764067200000 implements MigrationInterface {
  name = 'ExternalValidations1764067200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE external_validations (
        id uuid PRIMARY KEY,
        client_id text NOT NULL,
        user_id uuid NOT NULL,
        type text NOT NULL CHECK (type IN ('document', 'face')),
        resource_id text NOT NULL,
        verified boolean NOT NULL,
        resource_url text,
        process_id text,
        document jsonb,
        face jsonb,
        created_at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE UNIQUE INDEX external_validations_process_uq ON external_validations (client_id, process_id) WHERE process_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX external_validations_user_idx ON external_validations (user_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE external_validations`);
  }
}
