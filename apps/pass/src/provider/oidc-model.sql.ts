// The SQL of OidcModelStore (table pass.oidc_models, and pass.users for the account lookups of a grant).

const COLUMNS = 'model, id, payload, grant_id, uid, user_code, expires_at';
const ON_CONFLICT = `
  ON CONFLICT (model, id) DO UPDATE
    SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
        user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`;

/**
 * Inserts the rows of the JSON array parameter $n (objects with model, id, payload, expires_at): one text
 * parameter, serialized once, instead of an array per column.
 */
const upsertRows = (n: number) => `
  INSERT INTO oidc_models (${COLUMNS})
  SELECT w.model, w.id, w.payload, w.payload->>'grantId', w.payload->>'uid', w.payload->>'userCode', w.expires_at
    FROM jsonb_to_recordset($${n}::jsonb) AS w(model text, id text, payload jsonb, expires_at timestamptz)`;

export const UPSERT = `
  INSERT INTO oidc_models (${COLUMNS})
  VALUES ($1, $2, $3, $4, $5, $6, $7)
  ${ON_CONFLICT}`;

export const FIND = 'SELECT payload, consumed_at, expires_at FROM oidc_models WHERE model = $1 AND id = $2';
export const FIND_BY_UID =
  'SELECT payload, consumed_at, expires_at FROM oidc_models WHERE model = $1 AND uid = $2 LIMIT 1';
export const FIND_BY_USER_CODE =
  'SELECT payload, consumed_at, expires_at FROM oidc_models WHERE model = $1 AND user_code = $2 LIMIT 1';

/**
 * A code or refresh token with its grant and whether its account (pass.users) exists: the three reads a
 * grant starts with, in one statement (see TokenRequestUnit).
 */
export const FIND_WITH_GRANT = `
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

export const CONSUME =
  'UPDATE oidc_models SET consumed_at = $3 WHERE model = $1 AND id = $2 AND consumed_at IS NULL RETURNING 1';
export const DESTROY = 'DELETE FROM oidc_models WHERE model = $1 AND id = $2';
export const REVOKE_GRANT = 'DELETE FROM oidc_models WHERE grant_id = $1';

/** Upserts the rows of $1 (see upsertRows). */
export const WRITE_ROWS = `${upsertRows(1)} ${ON_CONFLICT}`;

/** Consumes ($1, $2) at $3 and, only if that consumed it, writes the rows of $4. */
export const CONSUME_AND_WRITE = `
  WITH consumed AS (
    UPDATE oidc_models SET consumed_at = $3 WHERE model = $1 AND id = $2 AND consumed_at IS NULL RETURNING 1
  ), written AS (
    ${upsertRows(4)}
     WHERE EXISTS (SELECT 1 FROM consumed)
    ${ON_CONFLICT}
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM consumed)::int AS consumed`;

export const ACCOUNT_EXISTS = 'SELECT 1 FROM users WHERE id = $1';

export const CIBA_REQUEST = `SELECT consumed_at FROM oidc_models WHERE model = 'BackchannelAuthenticationRequest' AND id = $1`;

/** Records a CIBA poll of $1 (payload $2, until $3) unless the previous one was after $4 (epoch ms). */
export const CIBA_POLL = `
  INSERT INTO oidc_models (model, id, payload, expires_at) VALUES ('CibaPoll', $1, $2, $3)
  ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload
    WHERE (oidc_models.payload->>'at')::bigint <= $4
  RETURNING 1`;
