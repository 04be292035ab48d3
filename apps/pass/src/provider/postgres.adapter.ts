import { Clock, pgPool } from '@kyc/platform';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { DataSource } from 'typeorm';

import {
  commitTokenRequest,
  DEFERRED_CONSUMES,
  DEFERRED_SAVES,
  TokenRequestUnit,
  tokenRequestUnit,
} from './token-request-unit';

/** What the adapter needs from the rest of pass. */
export interface PostgresAdapterDeps {
  dataSource: DataSource;
  clock: Clock;
  /**
   * Client metadata of a registered application (the `Client` model is read from the applications table;
   * oidc-provider's clients are cached above the adapter: client-cache.ts).
   */
  findClient(clientId: string): Promise<AdapterPayload | undefined>;
  /** The error a second consumption of a single-use token raises (oidc-provider's InvalidGrant). */
  alreadyConsumed(model: string): Error;
}

interface Row {
  payload: AdapterPayload;
  consumed_at: Date | null;
  expires_at: Date | null;
}

interface RowWithGrant extends Row {
  grant_payload: AdapterPayload | null;
  grant_consumed_at: Date | null;
  grant_expires_at: Date | null;
  account_exists: boolean;
}

/**
 * A code or refresh token with its grant and whether its account (pass.users) exists: the three reads a
 * grant starts with, in one statement (see TokenRequestUnit).
 */
const FIND_WITH_GRANT = `
  SELECT t.payload, t.consumed_at, t.expires_at,
         g.payload AS grant_payload, g.consumed_at AS grant_consumed_at, g.expires_at AS grant_expires_at,
         EXISTS (
           SELECT 1 FROM users u
            WHERE u.id = CASE WHEN t.payload->>'accountId' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                              THEN (t.payload->>'accountId')::uuid END
         ) AS account_exists
    FROM oidc_models t
    LEFT JOIN oidc_models g ON g.model = 'Grant' AND g.id = t.grant_id
   WHERE t.model = $1 AND t.id = $2`;

/**
 * oidc-provider's storage on Postgres (table pass.oidc_models): every model (Session, Interaction, Grant,
 * AuthorizationCode, AccessToken, RefreshToken, BackchannelAuthenticationRequest...) is one row keyed by
 * (model, id), so nothing is lost on restart and replicas share state. Consumption is an atomic conditional
 * update: of two concurrent redemptions of one code or refresh token exactly one wins.
 */
export function postgresAdapter(deps: PostgresAdapterDeps): new (model: string) => Adapter {
  const { clock } = deps;
  // Straight on the pg pool with named (prepared once per connection) statements: every token request runs
  // several of these primary-key statements, and TypeORM's query runner adds work to each.
  const pool = pgPool(deps.dataSource);
  const run = async <T>(name: string, text: string, values: unknown[]) => {
    const result = await pool.query({ name: `pass_oidc_${name}`, text, values });
    return { rows: result.rows as T[], count: result.rowCount ?? 0 };
  };
  const live = (row: Row | undefined): AdapterPayload | undefined => {
    if (!row) return undefined;
    if (row.expires_at && row.expires_at.getTime() <= clock.now().getTime()) return undefined;
    return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
  };

  /** Writes what the unit holds back before a statement that must come after it (order kept). */
  const commitFirst = async (unit: TokenRequestUnit | undefined) => {
    if (!unit?.pending) return;
    const model = unit.consume?.model ?? '';
    if (!(await commitTokenRequest(pool, unit, true))) throw deps.alreadyConsumed(model);
  };

  return class PostgresAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(clock.now().getTime() + expiresIn * 1000) : null;
      const unit = tokenRequestUnit.getStore();
      if (unit && DEFERRED_SAVES.has(this.model)) {
        unit.writes.push({ model: this.model, id, payload, expiresAt });
        return;
      }
      await commitFirst(unit);
      await run(
        'upsert',
        `INSERT INTO oidc_models (model, id, payload, grant_id, uid, user_code, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (model, id) DO UPDATE
           SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
               user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
        [this.model, id, payload, payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiresAt],
      );
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return deps.findClient(id);
      const unit = tokenRequestUnit.getStore();
      if (unit && this.model === 'Grant' && unit.grants.has(id)) return unit.grants.get(id);
      if (unit && DEFERRED_CONSUMES.has(this.model)) return this.findWithGrant(unit, id);
      const { rows } = await run<Row>(
        'find',
        'SELECT payload, consumed_at, expires_at FROM oidc_models WHERE model = $1 AND id = $2',
        [this.model, id],
      );
      return live(rows[0]);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const { rows } = await run<Row>(
        'find_by_uid',
        'SELECT payload, consumed_at, expires_at FROM oidc_models WHERE model = $1 AND uid = $2 LIMIT 1',
        [this.model, uid],
      );
      return live(rows[0]);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const { rows } = await run<Row>(
        'find_by_user_code',
        'SELECT payload, consumed_at, expires_at FROM oidc_models WHERE model = $1 AND user_code = $2 LIMIT 1',
        [this.model, userCode],
      );
      return live(rows[0]);
    }

    /** Marks the token used; a token already used (by a concurrent request) is refused. */
    async consume(id: string): Promise<void> {
      const unit = tokenRequestUnit.getStore();
      if (unit && DEFERRED_CONSUMES.has(this.model) && !unit.consume) {
        unit.consume = { model: this.model, id, at: clock.now() };
        return;
      }
      await commitFirst(unit);
      const { count } = await run(
        'consume',
        'UPDATE oidc_models SET consumed_at = $3 WHERE model = $1 AND id = $2 AND consumed_at IS NULL',
        [this.model, id, clock.now()],
      );
      if (count === 0) throw deps.alreadyConsumed(this.model);
    }

    async destroy(id: string): Promise<void> {
      await commitFirst(tokenRequestUnit.getStore());
      await run('destroy', 'DELETE FROM oidc_models WHERE model = $1 AND id = $2', [this.model, id]);
    }

    /** Revokes a whole token family (every model sharing the grant). */
    async revokeByGrantId(grantId: string): Promise<void> {
      await commitFirst(tokenRequestUnit.getStore());
      await run('revoke_grant', 'DELETE FROM oidc_models WHERE grant_id = $1', [grantId]);
    }

    private async findWithGrant(unit: TokenRequestUnit, id: string): Promise<AdapterPayload | undefined> {
      const { rows } = await run<RowWithGrant>('find_with_grant', FIND_WITH_GRANT, [this.model, id]);
      const row = rows[0];
      const payload = live(row);
      if (!row || !payload) return payload;
      if (typeof row.payload.grantId === 'string')
        unit.grants.set(
          row.payload.grantId,
          live(
            row.grant_payload
              ? { payload: row.grant_payload, consumed_at: row.grant_consumed_at, expires_at: row.grant_expires_at }
              : undefined,
          ),
        );
      if (typeof row.payload.accountId === 'string') unit.accounts.set(row.payload.accountId, row.account_exists);
      return payload;
    }
  };
}
