/** The SQL of InboxEventStore: constant text, values as $n parameters. */

/**
 * Serialises the feed's writers (one transaction-scoped lock per schema), so rows commit in the
 * order of their `seq`: a reader that saw seq n never later finds a smaller one committed.
 */
export const LOCK_WRITERS = `SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.inbox_events'))`;

/** One row ($1 event id, $2 tenant, $3 chat, $4 owner, $5 previous owner, $6 type, $7 data, $8 when), once per event id. */
export const INSERT = `INSERT INTO inbox_events (event_id, tenant_id, chat_id, owner, previous_owner, type, data, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)
       ON CONFLICT (event_id) DO NOTHING RETURNING seq::text`;

/** Rows after a seq ($1), oldest first, at most $2. */
export const AFTER = `SELECT seq::text, tenant_id, chat_id, owner, previous_owner, type, data, created_at
         FROM inbox_events WHERE seq > $1 ORDER BY seq LIMIT $2`;

/** The newest and the oldest seq kept (0 when none). */
export const BOUNDS = `SELECT COALESCE(max(seq), 0)::text AS head, COALESCE(min(seq), 0)::text AS oldest FROM inbox_events`;

/** Rows older than $1, always keeping the newest (so the window's start stays known). */
export const PRUNE = `DELETE FROM inbox_events
        WHERE created_at < $1 AND seq < (SELECT max(seq) FROM inbox_events)`;

/** The chat (and activity) of a message of a tenant ($1 message id, $2 tenant). */
export const MESSAGE_CHAT = `SELECT a.id AS activity_id, a.created_at, a.actor_type, a.actor, a.text, a.message_status,
              c.id AS chat_id, c.owner
         FROM chat_activities a JOIN chats c ON c.id = a.chat_id
        WHERE a.message_id = $1 AND a.activity_type = 'message' AND a.tenant_id = $2
        ORDER BY a.seq LIMIT 1`;

/** The owner of a tenant's chat now ($1 chat id, $2 tenant). */
export const CHAT_OWNER = `SELECT owner FROM chats WHERE id = $1 AND tenant_id = $2`;
