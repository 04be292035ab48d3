import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A new check is its own start work item (the engine claims checks waiting to start from
 * `checks`, CheckRunStore.startSource) instead of a `checks.start` job written beside it:
 *
 * - start_attempts: the claims of the check's start; NULL on checks written by a replica of the
 *   previous version, which queues a start job for them (any replica runs it), so such a check is
 *   never also claimed here. A new replica writes 0.
 * - start_claimed_until: the lease of the worker starting it ('infinity' after its last attempt).
 * - correlation_id, trace_context: what the start job carried (the creating request's id, its
 *   trace while tracing runs), continued by the start and the finished event.
 * - checks_start_due_idx: the checks waiting to start, oldest first (a claim reads a few entries).
 *
 * Nullable columns without defaults and a new index: no row is rewritten, and a replica of the
 * previous version keeps working during a rolling upgrade (it names its columns, queues start jobs
 * as before, and this version still runs them). Reverting queues a start job for every check of
 * this version still waiting to start, so a previous version rolled back to starts them.
 */
export class ChecksStartWithoutJob1764400000000 implements MigrationInterface {
  name = 'ChecksStartWithoutJob1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE checks ADD COLUMN start_attempts int, ADD COLUMN start_claimed_until timestamptz,
                                      ADD COLUMN correlation_id text, ADD COLUMN trace_context jsonb`);
    await q.query(`CREATE INDEX checks_start_due_idx ON checks (created_at) WHERE status = 'not_started'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`INSERT INTO jobs (queue, tenant_id, payload, max_attempts, run_at, correlation_id, trace_context)
                   SELECT 'checks.start', tenant_id, jsonb_build_object('check_id', id), 10, now(), correlation_id, trace_context
                     FROM checks WHERE status = 'not_started' AND start_attempts IS NOT NULL`);
    await q.query(`DROP INDEX checks_start_due_idx`);
    await q.query(`ALTER TABLE checks DROP COLUMN start_attempts, DROP COLUMN start_claimed_until,
                                      DROP COLUMN correlation_id, DROP COLUMN trace_context`);
  }
}
