// The SQL of ProfileStore (reads of profiles, profile_identifiers and transactions).

export const PROFILE_OF_IDENTIFIER = `SELECT profile_id FROM profile_identifiers WHERE tenant_id = $1 AND key = $2`;

/**
 * A page of live profile ids after $2 matching `where` (JSON-Logic translated to SQL, its parameters from $5;
 * `prm.since` ($3) is the start of the 30-day window), at most $4.
 */
export const searchIds = (where: string) => `
  SELECT p.id FROM profiles p CROSS JOIN (SELECT CAST($3 AS timestamptz) AS since) prm
   WHERE p.tenant_id = $1 AND p.merged_into IS NULL AND p.id > $2 AND ${where}
   ORDER BY p.id LIMIT $4`;

/** A page of live profile ids after $2 (only $3 when given), at most $4. */
export const PAGE_IDS = `
  SELECT id FROM profiles WHERE tenant_id = $1 AND merged_into IS NULL AND id > $2 AND ($3::text IS NULL OR id = $3)
   ORDER BY id LIMIT $4`;

/** The aggregates `columns` (the catalog's own SQL, no input) of each profile of $2 over transactions from $3 to $4. */
export const variableValues = (columns: string[]) => `
  SELECT p.id AS "__id", ${columns.map((sql, i) => `${sql} AS "v${i}"`).join(', ')}
    FROM unnest($2::text[]) AS p(id)
    LEFT JOIN transactions t ON t.profile_id = p.id AND t.tenant_id = $1
          AND t.occurred_at >= $3::date AND t.occurred_at < $4::date + 1
   GROUP BY p.id`;
