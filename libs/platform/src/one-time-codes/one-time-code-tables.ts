import type { QueryRunner } from 'typeorm';

/**
 * The tables of OneTimeCodeService, created by each service that sends codes in its own schema with
 * a migration of its own calling createOneTimeCodeTables. Frozen once released: a later change of
 * these tables is a new function that services call from a new migration.
 *
 * - one_time_codes: a code (its HMAC, never the code) for a reference (an interaction, a
 *   validation), the person it was sent to (subject), its attempts and expiry.
 * - one_time_code_limits: one counter per limit key (a person's wrong guesses, codes sent to an
 *   address or from a client address) with its window and lockout.
 */
export async function createOneTimeCodeTables(q: QueryRunner): Promise<void> {
  await q.query(`CREATE TABLE one_time_codes (
    id uuid PRIMARY KEY,
    purpose text NOT NULL,
    reference text NOT NULL,
    subject text NOT NULL,
    code_hash text NOT NULL,
    attempts int NOT NULL,
    max_attempts int NOT NULL,
    expires_at timestamptz NOT NULL,
    consumed_at timestamptz,
    created_at timestamptz NOT NULL
  )`);
  await q.query(`CREATE INDEX one_time_codes_reference_idx ON one_time_codes (purpose, reference, created_at DESC)`);
  await q.query(`CREATE INDEX one_time_codes_expires_idx ON one_time_codes (expires_at)`);
  await q.query(`CREATE TABLE one_time_code_limits (
    key text PRIMARY KEY,
    count int NOT NULL,
    window_started_at timestamptz NOT NULL,
    strikes int NOT NULL,
    locked_until timestamptz,
    updated_at timestamptz NOT NULL
  )`);
}

export async function dropOneTimeCodeTables(q: QueryRunner): Promise<void> {
  await q.query(`DROP TABLE one_time_code_limits`);
  await q.query(`DROP TABLE one_time_codes`);
}
