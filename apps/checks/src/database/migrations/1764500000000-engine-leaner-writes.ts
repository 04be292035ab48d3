import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a check's run writes, made smaller (issue 39; WAL per check by record type in
 * docs/benchmarks.md):
 * - `check_databases_check_idx` goes: every read of a check's databases names the check, and the
 *   unique (check_id, database_id) index finds its few rows (one per database) as well; one index
 *   entry less per database of every check.
 * - `collector_runs.id` goes with its primary key: nothing reads a run by id (database health
 *   reads them by country and time), so each run wrote an index entry and a sequence value for
 *   nothing.
 * - `check_databases` pages are filled to 70 % by inserts, so a database's answer (an update of
 *   columns no index holds) is written on the same page as a HOT update: no index entries, and
 *   only the changed bytes in the WAL.
 * Rolling-upgrade safe: a replica of the previous version reads through the remaining index and
 * inserts runs naming their columns (never `id`).
 */
export class EngineLeanerWrites1764500000000 implements MigrationInterface {
  name = 'EngineLeanerWrites1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX check_databases_check_idx`);
    await q.query(`ALTER TABLE collector_runs DROP COLUMN id`);
    await q.query(`ALTER TABLE check_databases SET (fillfactor = 70)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE check_databases RESET (fillfactor)`);
    await q.query(`ALTER TABLE collector_runs ADD COLUMN id bigserial PRIMARY KEY`);
    await q.query(`CREATE INDEX check_databases_check_idx ON check_databases (tenant_id, check_id, created_at, id)`);
  }
}
