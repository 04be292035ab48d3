/** The SQL of CollectorCredentialStore (collector_credentials). */

export const UPSERT = `INSERT INTO collector_credentials (tenant_id, database_id, username, secret, has_complements, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (tenant_id, database_id) DO UPDATE SET username = EXCLUDED.username, secret = EXCLUDED.secret, has_complements = EXCLUDED.has_complements, updated_at = EXCLUDED.updated_at
       RETURNING created_at, updated_at`;
