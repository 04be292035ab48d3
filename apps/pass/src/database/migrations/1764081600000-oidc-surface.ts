import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The standard OpenID Connect surface: applications registered as public (no secret, PKCE S256 required)
 * and PKCE required per application (on for applications created from now on; the API sets it, existing
 * rows keep their behaviour), and when a signing key was retired (it stays in the key set for an overlap).
 */
export class OidcSurface1764081600000 implements MigrationInterface {
  name = 'OidcSurface1764081600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE applications ADD COLUMN public_client boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE applications ADD COLUMN require_pkce boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE signing_keys ADD COLUMN retired_at timestamptz`);
    await q.query(`UPDATE signing_keys SET retired_at = created_at WHERE status = 'retired'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE signing_keys DROP COLUMN retired_at`);
    await q.query(`ALTER TABLE applications DROP COLUMN require_pkce`);
    await q.query(`ALTER TABLE applications DROP COLUMN public_client`);
  }
}
