import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The checks service's custom types (names a document validation may link, folded from the
 * `checks.custom-type.*` events) and the "on request" countries and document types a platform
 * operator enables for a tenant.
 */
export class CustomTypesOnRequest1764200000000 implements MigrationInterface {
  name = 'CustomTypesOnRequest1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE custom_types (
      tenant_id text NOT NULL,
      country text NOT NULL,
      type text NOT NULL,
      config_id text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, country, type)
    )`);
    await q.query(`CREATE INDEX custom_types_name_idx ON custom_types (tenant_id, lower(type))`);
    await q.query(`ALTER TABLE tenant_features
      ADD COLUMN on_request_countries text[] NOT NULL DEFAULT '{}',
      ADD COLUMN on_request_document_types text[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE tenant_features DROP COLUMN on_request_countries, DROP COLUMN on_request_document_types`,
    );
    await q.query(`DROP TABLE custom_types`);
  }
}
