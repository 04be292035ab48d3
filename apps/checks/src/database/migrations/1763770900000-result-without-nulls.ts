import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A check's stored result holds exactly its public result fields, so GET /v1/checks/{id} copies it
 * as JSON text (check.presenter.ts, RESULT_JSON_SQL): the engine no longer stores an unknown
 * homonym_probability as null, and this removes the nulls stored before.
 */
export class ResultWithoutNulls1763770900000 implements MigrationInterface {
  name = 'ResultWithoutNulls1763770900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE checks SET result = result - 'homonym_probability' WHERE result->'homonym_probability' = 'null'::jsonb`,
    );
  }

  async down(): Promise<void> {
    // Nothing to restore: a missing homonym_probability reads as null everywhere.
  }
}
