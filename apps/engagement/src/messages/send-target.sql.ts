/** The statement of SendTargetStore: what an API send reads. Values are always bound parameters. */

/**
 * The columns of an outbound a send reads: its rules (status, notification, variables), the
 * provider's template (definition) and the message row. Fewer columns than `o.*` (no dates, no
 * review fields) are fewer to describe, parse and map on every send.
 */
const SEND_COLUMNS = `o.id, o.tenant_id, o.line_id, o.line_phone, o.status, o.is_notification, o.variables, o.provider_name,
       o.category, o.language_code, o.template_type, o.content, o.header_text, o.footer, o.code_expiration_minutes,
       o.buttons, o.media_id, o.examples`;

/**
 * Outbounds ($1 ids) of tenants ($2, pairwise) with their tenants' sealed credentials, in one round
 * trip; named, so parsed and planned once per connection (primary-key lookups, and a join on the
 * credentials' primary key).
 */
export const SEND_TARGETS_SQL = `SELECT ${SEND_COLUMNS}, c.tenant_id AS credentials_tenant_id, c.waba_id AS credentials_waba_id, c.sealed AS credentials_sealed
  FROM unnest($1::text[], $2::text[]) AS k(id, tenant_id)
  JOIN outbounds o ON o.id = k.id AND o.tenant_id = k.tenant_id
  LEFT JOIN provider_credentials c ON c.tenant_id = o.tenant_id`;
