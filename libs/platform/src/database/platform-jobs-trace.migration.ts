import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trace context a job continues (W3C traceparent/tracestate as a JSON object), written only
 * while tracing runs (docs/operations.md, "Tracing"). Nullable without a default: adding it
 * rewrites no row.
 */
export class PlatformJobsTrace1795610642000 implements MigrationInterface {
  name = 'PlatformJobsTrace1795610642000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN trace_context jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs DROP COLUMN trace_context`);
  }
}
