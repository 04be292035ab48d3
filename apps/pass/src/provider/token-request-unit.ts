import { AsyncLocalStorage } from 'node:async_hooks';

import type { AdapterPayload } from 'oidc-provider';
import type { Pool } from 'pg';

/** A row oidc-provider saves (`upsert`), in oidc_models' columns. */
export interface ModelRow {
  model: string;
  id: string;
  payload: AdapterPayload;
  expiresAt: Date | null;
}

/**
 * The unit of work of one authorization_code or refresh_token grant at the token endpoint. oidc-provider runs
 * such a grant as a chain of adapter calls, each a round trip of its own: find the code or token, find its
 * grant, find the account, consume, save the access token, save the refresh token. Within a unit:
 * - the code or token is read with its grant and whether its account exists (one statement), and the grant
 *   and account lookups that follow are answered from what was read;
 * - the consumption and the new tokens are held back and written by `commitTokenRequest` in one statement
 *   once the answer is ready and before it is sent: the new tokens are stored only if this request consumed
 *   the code or token (a concurrent redemption, or any failure, leaves nothing behind and the answer becomes
 *   `invalid_grant`), so a token in an answer is always stored and of two concurrent redemptions one wins.
 */
export class TokenRequestUnit {
  /** Grant rows read with the request's code or token, by grant id (undefined: missing or expired). */
  readonly grants = new Map<string, AdapterPayload | undefined>();
  /** Whether the account a code or token names exists, read with it. */
  readonly accounts = new Map<string, boolean>();
  /** The single-use code or token to mark used (a conditional update at commit). */
  consume?: { model: string; id: string; at: Date };
  /** Access and refresh tokens saved by the grant, written at commit. */
  readonly writes: ModelRow[] = [];

  get pending(): boolean {
    return this.consume !== undefined || this.writes.length > 0;
  }
}

/** The unit of the token request being served (set by the token endpoint middleware around the grant). */
export const tokenRequestUnit = new AsyncLocalStorage<TokenRequestUnit>();

/** Models whose saves a unit holds back (the tokens a grant issues). */
export const DEFERRED_SAVES = new Set(['AccessToken', 'RefreshToken']);
/** Models whose consumption a unit holds back (what a grant redeems). */
export const DEFERRED_CONSUMES = new Set(['AuthorizationCode', 'RefreshToken']);

/**
 * Inserts the rows of the JSON array parameter $n (objects with model, id, payload, expires_at): one text
 * parameter, serialized once, instead of an array per column.
 */
const upsertRows = (n: number) => `
  INSERT INTO oidc_models (model, id, payload, grant_id, uid, user_code, expires_at)
  SELECT w.model, w.id, w.payload, w.payload->>'grantId', w.payload->>'uid', w.payload->>'userCode', w.expires_at
    FROM jsonb_to_recordset($${n}::jsonb) AS w(model text, id text, payload jsonb, expires_at timestamptz)`;
const ON_CONFLICT = `
  ON CONFLICT (model, id) DO UPDATE
    SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
        user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`;

/** Consumes ($1, $2) at $3 and, only if that consumed it, writes the rows of $4. */
const CONSUME_AND_WRITE = `
  WITH consumed AS (
    UPDATE oidc_models SET consumed_at = $3 WHERE model = $1 AND id = $2 AND consumed_at IS NULL RETURNING 1
  ), written AS (
    ${upsertRows(4)}
     WHERE EXISTS (SELECT 1 FROM consumed)
    ${ON_CONFLICT}
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM consumed)::int AS consumed`;

/**
 * Writes what a unit held back in one statement: the consumption and, when `withWrites` (the answer is a
 * success), the saved tokens. False when the code or token had already been consumed (nothing written).
 */
export async function commitTokenRequest(pool: Pool, unit: TokenRequestUnit, withWrites: boolean): Promise<boolean> {
  const rows = JSON.stringify(
    (withWrites ? unit.writes : []).map((r) => ({
      model: r.model,
      id: r.id,
      payload: r.payload,
      expires_at: r.expiresAt?.toISOString() ?? null,
    })),
  );
  const hasRows = withWrites && unit.writes.length > 0;
  const { consume } = unit;
  unit.consume = undefined;
  unit.writes.length = 0;
  if (!consume) {
    if (hasRows)
      await pool.query({ name: 'pass_oidc_unit_write', text: `${upsertRows(1)} ${ON_CONFLICT}`, values: [rows] });
    return true;
  }
  const result = await pool.query<{ consumed: number }>({
    name: 'pass_oidc_unit_consume_write',
    text: CONSUME_AND_WRITE,
    values: [consume.model, consume.id, consume.at, rows],
  });
  return result.rows[0].consumed === 1;
}
