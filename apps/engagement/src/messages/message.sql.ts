import type { OutboxService } from '@kyc/platform';

/** The statements of the messages table, run by MessageStore only. Values are always bound parameters. */

/**
 * Stores messages ($1, a JSON array) and their events ($2, possibly none) with one statement: one transaction, so
 * a message is never stored without its event nor an event without its message. Named (prepared
 * once per connection): it writes by key and reads no table, so its plan never depends on sizes.
 */
export const storeMessagesSql = (outbox: OutboxService) => `WITH ins AS (
     INSERT INTO messages (id, tenant_id, direction, line_id, line_phone, phone, account_id, outbound_id, flow_id, campaign_id,
                           text, "values", status, error, provider_message_id, created_at, updated_at)
     SELECT r.id, r.tenant_id, r.direction, r.line_id, r.line_phone, r.phone, r.account_id, r.outbound_id, r.flow_id, r.campaign_id,
            r.text, r."values", r.status, r.error, r.provider_message_id, r.created_at, r.updated_at
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, tenant_id text, direction text, line_id text, line_phone text, phone text,
                                               account_id text, outbound_id text, flow_id text, campaign_id text, text text,
                                               "values" jsonb, status text, error text, provider_message_id text,
                                               created_at timestamptz, updated_at timestamptz)
     RETURNING id
   ), evt AS (
     ${outbox.insertSql('$2')}
   )
   SELECT count(*)::int AS stored FROM ins`;

/**
 * The messages statuses name: by our references ($1) or the provider's ids ($2), of the tenant
 * whose business account reported them ($3), locked in id order; only what a status changes or is
 * matched by (no values, text nor dates to parse).
 */
export const STATUS_MESSAGES_SQL = `SELECT id, tenant_id, status, error, provider_message_id FROM messages
  WHERE tenant_id = $3 AND (id = ANY($1::text[]) OR provider_message_id = ANY($2::text[]))
  ORDER BY id FOR UPDATE`;
export const STATUS_UPDATES_SQL = `UPDATE messages m SET status = u.status, error = u.error, updated_at = u.updated_at
  FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) AS u(id, status, error, updated_at)
 WHERE m.id = u.id`;

/** Whether a message has the provider id $1 (in any tenant: provider ids are unique). */
export const KNOWS_PROVIDER_ID_SQL = `SELECT 1 FROM messages WHERE provider_message_id = $1`;
