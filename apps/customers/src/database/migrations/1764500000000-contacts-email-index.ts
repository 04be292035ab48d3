import { MigrationInterface, QueryRunner } from 'typeorm';

/** Contacts are searched by e-mail (stored lower-case) within a tenant. */
export class ContactsEmailIndex1764500000000 implements MigrationInterface {
  name = 'ContactsEmailIndex1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX contacts_email_idx ON contacts (tenant_id, email)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX contacts_email_idx`);
  }
}
