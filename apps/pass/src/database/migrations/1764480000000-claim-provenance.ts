import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Claims carry their provenance (issue 30 §2): `users.provenance` says, per claim, who proved it (pass, the
 * operator, a tenant's identity process, the checks service), with what and when; claims stored before are
 * marked `legacy` (any proven claim replaces them). A process binds to a person only through the e-mail its
 * own one-time-code step proved: `identity_processes` keeps each bound process with its proofs. The link by
 * validation account (`user_accounts`), through which any tenant's account reached a person, is dropped;
 * validations are matched to processes by `process_id` instead; the people it reached lose their verified
 * identity and phone flags.
 */
export class ClaimProvenance1764480000000 implements MigrationInterface {
  name = 'ClaimProvenance1764480000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN provenance jsonb NOT NULL DEFAULT '{}'`);
    await q.query(`
      UPDATE users SET provenance = jsonb_strip_nulls(jsonb_build_object(
        'email', jsonb_build_object('source', 'legacy', 'method', 'legacy', 'verified_at', to_jsonb(created_at)),
        'phone', CASE WHEN phone_number IS NOT NULL
          THEN jsonb_build_object('source', 'legacy', 'method', 'legacy', 'verified_at', to_jsonb(updated_at)) END,
        'identity', CASE WHEN identity <> '{}'
          THEN jsonb_build_object('source', 'legacy', 'method', 'legacy', 'verified_at', to_jsonb(updated_at)) END,
        'biometric', CASE WHEN biometric <> '{}'
          THEN jsonb_build_object('source', 'legacy', 'method', 'legacy', 'verified_at', to_jsonb(updated_at)) END,
        'background', CASE WHEN background <> '{}'
          THEN jsonb_build_object('source', 'legacy', 'method', 'legacy', 'verified_at', to_jsonb(updated_at)) END,
        'address', CASE WHEN address IS NOT NULL
          THEN jsonb_build_object('source', 'legacy', 'method', 'legacy', 'verified_at', to_jsonb(updated_at)) END))`);
    await q.query(`ALTER TABLE account_validations ADD COLUMN process_id text`);
    await q.query(`CREATE INDEX account_validations_process_idx ON account_validations (tenant_id, process_id)`);
    await q.query(`
      CREATE TABLE identity_processes (
        tenant_id text NOT NULL,
        process_id text NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        bound_by jsonb NOT NULL,
        proofs jsonb NOT NULL,
        variables jsonb NOT NULL,
        finished_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, process_id)
      )`);
    await q.query(`CREATE INDEX identity_processes_user_idx ON identity_processes (user_id, finished_at)`);
    // People reached through a validation account (the old binding, by a typed-in e-mail) may carry another
    // tenant's forged identity and phone: neither stays verified (the data stay, as legacy; a proven process
    // replaces them; the operator can seed the phone again). `down` does not restore the flags.
    await q.query(`
      UPDATE users u SET
        identity = CASE WHEN u.identity ? 'verified' THEN jsonb_set(u.identity, '{verified}', 'false') ELSE u.identity END,
        phone_verified = false
      WHERE EXISTS (SELECT 1 FROM user_accounts a WHERE a.user_id = u.id)`);
    await q.query(`DROP TABLE user_accounts`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE user_accounts (
        tenant_id text NOT NULL,
        account_id text NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        linked_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, account_id)
      )`);
    await q.query(`CREATE INDEX user_accounts_user_idx ON user_accounts (user_id)`);
    await q.query(`DROP TABLE identity_processes`);
    await q.query(`DROP INDEX account_validations_process_idx`);
    await q.query(`ALTER TABLE account_validations DROP COLUMN process_id`);
    await q.query(`ALTER TABLE users DROP COLUMN provenance`);
  }
}
