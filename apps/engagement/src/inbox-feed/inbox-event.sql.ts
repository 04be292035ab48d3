/** The SQL of InboxEventStore: constant text, values as $n parameters. */

/**
 * Serialises the feed's writers (one transaction-scoped lock per schema), so rows commit in the
 * order of their `seq`: a reader that saw seq n never later finds a smaller one committed.
 */
export const LOCK_WRITERS = `SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.inbox_events'))`;

/**
 * Rows in the order given (arrays: $1 event ids, $2 tenants, $3 chats, $4 owners, $5 previous owners,
 * $6 types, $7 data as JSON text, $8 times), once per event id.
 */
export const INSERT = `INSERT INTO inbox_events (event_id, tenant_id, chat_id, owner, previous_owner, type, data, created_at)
       SELECT e.event_id, e.tenant_id, e.chat_id, e.owner, e.previous_owner, e.type, e.data::jsonb, e.created_at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
              WITH ORDINALITY AS e(event_id, tenant_id, chat_id, owner, previous_owner, type, data, created_at, n)
        ORDER BY e.n
       ON CONFLICT (event_id) DO NOTHING RETURNING seq::text`;

/**
 * Rows after a seq ($1), oldest first, at most $2. Ordered by the column, qualified: a bare `seq`
 * names the output column, the text `seq::text`, and a batch crossing 999 → 1000 came back as
 * 1000…, 999 (the feed's head moved back and rows were pushed twice).
 */
export const AFTER = `SELECT seq::text, tenant_id, chat_id, owner, previous_owner, type, data, created_at
         FROM inbox_events WHERE seq > $1 ORDER BY inbox_events.seq LIMIT $2`;

/** The newest and the oldest seq kept (0 when none). */
export const BOUNDS = `SELECT COALESCE(max(seq), 0)::text AS head, COALESCE(min(seq), 0)::text AS oldest FROM inbox_events`;

/** Rows older than $1, always keeping the newest (so the window's start stays known). */
export const PRUNE = `DELETE FROM inbox_events
        WHERE created_at < $1 AND seq < (SELECT max(seq) FROM inbox_events)`;

/** The chat (and activity) of messages of tenants ($1 message ids, $2 their tenants). */
export const MESSAGE_CHATS = `SELECT DISTINCT ON (a.message_id) a.message_id, a.id AS activity_id, a.created_at, a.actor_type,
              a.actor, a.text, a.message_status, c.id AS chat_id, c.owner
         FROM unnest($1::text[], $2::text[]) AS m(message_id, tenant_id)
         JOIN chat_activities a ON a.message_id = m.message_id AND a.tenant_id = m.tenant_id AND a.activity_type = 'message'
         JOIN chats c ON c.id = a.chat_id
        ORDER BY a.message_id, a.seq`;

/** The owners of chats now ($1 chat ids), with their tenants. */
export const CHAT_OWNERS = `SELECT id, tenant_id, owner FROM chats WHERE id = ANY($1::text[])`;
