import { MigrationInterface, QueryRunner } from 'typeorm';

/** Users and roles administration: keyset-pagination indexes, the role-holders lookup, and status values. */
export class UsersAndRoles1763770500000 implements MigrationInterface {
  name = 'UsersAndRoles1763770500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX users_tenant_created_idx ON users (tenant_id, created_at, id)`);
    await q.query(`CREATE INDEX users_tenant_role_idx ON users (tenant_id, role)`);
    await q.query(`CREATE INDEX roles_tenant_created_idx ON roles (tenant_id, created_at, name)`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_status_ck CHECK (status IN ('enabled', 'disabled'))`);
    await q.query(
      `ALTER TABLE users ADD CONSTRAINT users_language_ck CHECK (language IS NULL OR language IN ('es', 'en', 'pt'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_language_ck`);
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_status_ck`);
    await q.query(`DROP INDEX roles_tenant_created_idx`);
    await q.query(`DROP INDEX users_tenant_role_idx`);
    await q.query(`DROP INDEX users_tenant_created_idx`);
  }
}
