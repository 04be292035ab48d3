import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The profile's tags also as jsonb, kept by PostgreSQL (a stored generated column): segment rules
 * read `tags` as JSON, and converting the text[] for every profile of a compute cost more than the
 * rest of the rule. `to_jsonb` is only STABLE in general (dates, settings); for text[] it is
 * immutable, which the wrapper states so the column may use it.
 */
export class ProfileTagsJsonb1764300000000 implements MigrationInterface {
  name = 'ProfileTagsJsonb1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE FUNCTION text_array_jsonb(text[]) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT to_jsonb($1)'`,
    );
    await q.query(
      `ALTER TABLE profiles ADD COLUMN tags_json jsonb GENERATED ALWAYS AS (text_array_jsonb(tags)) STORED`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE profiles DROP COLUMN tags_json`);
    await q.query(`DROP FUNCTION text_array_jsonb(text[])`);
  }
}
