import { MigrationInterface, QueryRunner } from 'typeorm';

/** Product catalogs and their products (issue 19, catalogs). */
export class EngagementCatalogs1764100000000 implements MigrationInterface {
  name = 'EngagementCatalogs1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE catalogs (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL,
      name text NOT NULL,
      provider_type text NOT NULL,
      vertical text NOT NULL,
      waba_id text,
      provider_catalog_id text,
      published_waba_id text,
      published_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX catalogs_page_idx ON catalogs (tenant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE TABLE catalog_products (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL,
      catalog_id uuid NOT NULL REFERENCES catalogs (id) ON DELETE CASCADE,
      retailer_id text NOT NULL,
      name text NOT NULL,
      description text,
      price_minor bigint NOT NULL,
      currency text NOT NULL,
      availability text NOT NULL,
      brand text,
      condition text NOT NULL,
      image_url text,
      url text,
      sync_status text NOT NULL,
      sync_error text,
      synced_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (catalog_id, retailer_id))`);
    await q.query(`CREATE INDEX catalog_products_page_idx ON catalog_products (catalog_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE catalog_products`);
    await q.query(`DROP TABLE catalogs`);
  }
}
