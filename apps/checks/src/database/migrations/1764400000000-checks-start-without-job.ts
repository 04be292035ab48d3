import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A new check is its own start work item (the engine claims checks waiting to start from
 * `checks`, CheckRunStore.startSource) instead of a `checks.start` job written beside it:
 *
 * - checks.self_start: true on checks written by this version; NULL on those of a replica of the
 *   previous version, which queues a start job for them (any replica runs it), so such a check is
 *   never also claimed here.
 * - checks.correlation_id, checks.trace_context: what the start job carried (the creating
 *   request's id, its trace while tracing runs), continued by the start and the finished event.
 * - checks_start_due_idx: the checks waiting to start (a claim reads a few entries).
 * - check_start_claims (UNLOGGED): each claimed check's attempts and lease (the claiming worker's
 *   lock; 'infinity' after its last attempt). Unlogged, a claim writes no WAL and no new version of
 *   the check's row; losing the table in a crash of PostgreSQL is harmless: every waiting check
 *   is claimable again (a start is idempotent: it starts the check only if still not_started) and
 *   its attempts count from zero again.
 *
 * Nullable columns without defaults, a new index and a new table: no row is rewritten, and a
 * replica of the previous version keeps working during a rolling upgrade (it names its columns,
 * queues start jobs as before, and this version still runs them). Reverting queues a start job for
 * every check of this version still waiting to start, so a previous version rolled back to
 * starts them.
 */
export class ChecksStartWithoutJob1764400000000 implements MigrationInterface {
  name = 'ChecksStartWithoutJob1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE checks ADD COLUMN self_start boolean, ADD COLUMN correlation_id text, ADD COLUMN trace_context jsonb`,
    );
    await q.query(
      `CREATE INDEX checks_start_due_idx ON checks (created_at) WHERE status = 'not_started' AND self_start`,
    );
    await q.query(`CREATE UNLOGGED TABLE check_start_claims (
      check_id text PRIMARY KEY,
      attempts int NOT NULL,
      claimed_until timestamptz NOT NULL
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`INSERT INTO jobs (queue, tenant_id, payload, max_attempts, run_at, correlation_id, trace_context)
                   SELECT 'checks.start', tenant_id, jsonb_build_object('check_id', id), 10, now(), correlation_id, trace_context
                     FROM checks WHERE status = 'not_started' AND self_start`);
    await q.query(`DROP TABLE check_start_claims`);
    await q.query(`DROP INDEX checks_start_due_idx`);
    await q.query(`ALTER TABLE checks DROP COLUMN self_start, DROP COLUMN correlation_id, DROP COLUMN trace_context`);
  }
}
