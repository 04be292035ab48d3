import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAuditLog1763769800000 implements MigrationInterface {
  name = 'CreateAuditLog1763769800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE audit_log (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL,
      actor_id text NOT NULL,
      actor_username text,
      action text NOT NULL,
      resource_type text NOT NULL,
      resource_id text NOT NULL,
      changes jsonb NOT NULL DEFAULT '{}',
      reason text,
      request_id text,
      created_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX audit_log_tenant_created_idx ON audit_log (tenant_id, created_at, id)`);
    await q.query(`CREATE INDEX audit_log_resource_idx ON audit_log (tenant_id, resource_type, resource_id)`);
    // Append-only: the service never updates or deletes; the database refuses it too.
    await q.query(`CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$`);
    await q.query(
      `CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_log`);
    await q.query(`DROP FUNCTION audit_log_append_only()`);
  }
}
