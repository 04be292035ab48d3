/**
 * The statement of ValidationReadStore, run by it only: a tenant's validation by id with its media
 * slots (never their bytes), one row per slot (a single row with null media columns when it has none),
 * slots in creation order. Planned once per connection (a primary-key and a unique-key lookup).
 */
export const VALIDATION_WITH_MEDIA_SQL = `SELECT v.*,
       m.id AS m_id, m.tenant_id AS m_tenant_id, m.owner_kind AS m_owner_kind, m.owner_id AS m_owner_id,
       m.slot AS m_slot, m.content_type AS m_content_type, m.size AS m_size,
       m.uploaded_at AS m_uploaded_at, m.created_at AS m_created_at
  FROM validations v
  LEFT JOIN media m ON m.owner_kind = 'validation' AND m.owner_id = v.id
 WHERE v.tenant_id = $1 AND v.id = $2
 ORDER BY m.created_at`;
