import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The identity provider's schema: registered applications, the oidc-provider model store (sessions,
 * interactions, grants, codes, tokens, CIBA requests), the sealed signing keys, the users with the claims
 * built from events, and the e-mailed sign-in codes.
 */
export class CreatePass1764060000000 implements MigrationInterface {
  name = 'CreatePass1764060000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE applications (
        client_id text PRIMARY KEY,
        tenant_id text NOT NULL,
        name text NOT NULL,
        client_secret_sealed text NOT NULL,
        redirect_uris text[] NOT NULL,
        scopes text[] NOT NULL,
        restricted_scopes text[] NOT NULL DEFAULT '{}',
        allows_web_message boolean NOT NULL DEFAULT false,
        allowed_web_message_origins text[] NOT NULL DEFAULT '{}',
        allowed_email_domains text[] NOT NULL DEFAULT '{}',
        required_acr text,
        max_auth_age integer,
        ciba_enabled boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX applications_tenant_created_idx ON applications (tenant_id, created_at, client_id)`);
    await q.query(`
      CREATE TABLE oidc_models (
        model text NOT NULL,
        id text NOT NULL,
        payload jsonb NOT NULL,
        grant_id text,
        uid text,
        user_code text,
        expires_at timestamptz,
        consumed_at timestamptz,
        PRIMARY KEY (model, id)
      )`);
    await q.query(`CREATE INDEX oidc_models_grant_idx ON oidc_models (grant_id) WHERE grant_id IS NOT NULL`);
    await q.query(`CREATE INDEX oidc_models_uid_idx ON oidc_models (uid) WHERE uid IS NOT NULL`);
    await q.query(`CREATE INDEX oidc_models_expires_idx ON oidc_models (expires_at)`);
    await q.query(`
      CREATE TABLE signing_keys (
        kid text PRIMARY KEY,
        sealed_jwk text NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'retired')),
        created_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        email text NOT NULL UNIQUE,
        phone_number text,
        phone_verified boolean NOT NULL DEFAULT false,
        identity jsonb NOT NULL DEFAULT '{}',
        documents jsonb NOT NULL DEFAULT '[]',
        background jsonb NOT NULL DEFAULT '{}',
        biometric jsonb NOT NULL DEFAULT '{}',
        address jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE sign_in_codes (
        id uuid PRIMARY KEY,
        interaction_uid text NOT NULL,
        email text NOT NULL,
        code_hash text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sign_in_codes_interaction_idx ON sign_in_codes (interaction_uid, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sign_in_codes`);
    await q.query(`DROP TABLE users`);
    await q.query(`DROP TABLE signing_keys`);
    await q.query(`DROP TABLE oidc_models`);
    await q.query(`DROP TABLE applications`);
  }
}
