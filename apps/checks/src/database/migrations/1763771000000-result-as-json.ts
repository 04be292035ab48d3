import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The check's result is stored as json (its text as the engine wrote it) instead of jsonb: it is
 * only ever written and read whole, never queried inside, and GET /v1/checks/{id} copies it into
 * the response (RESULT_JSON_SQL); jsonb made PostgreSQL convert it back to text on every read
 * (docs/decisions/result-as-json.md).
 */
export class ResultAsJson1763771000000 implements MigrationInterface {
  name = 'ResultAsJson1763771000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE checks ALTER COLUMN result TYPE json USING result::json`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE checks ALTER COLUMN result TYPE jsonb USING result::jsonb`);
  }
}
