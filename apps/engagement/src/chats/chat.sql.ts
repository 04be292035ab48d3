/**
 * A user's message joins the open chat of its conversation ($1 id of a new chat, $2 tenant, $3 line,
 * $4 line phone and queue, $5 contact phone, $6 name or null, $7 now), or opens one: one statement
 * that inserts the chat, or locks the open one (the partial unique index on tenant, line and contact
 * of open chats) and moves its latest activity, 24-hour window and contact name. RETURNING the
 * chat; opened when its id is $1. A chat closed meanwhile no longer conflicts: a new one opens.
 */
export const USER_MESSAGE_CHAT = `INSERT INTO chats (id, tenant_id, line_id, line_phone, queue, contact_phone, contact_name, status, tags,
         enqueued_at, last_user_message_at, last_activity_at, last_actor_type, last_activity_type, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $4, $5, $6, 'open', '{}', $7, $7, $7, 'user', 'message', $7, $7)
       ON CONFLICT (tenant_id, line_id, contact_phone) WHERE status = 'open' DO UPDATE
         SET contact_name = COALESCE(EXCLUDED.contact_name, chats.contact_name),
             last_user_message_at = EXCLUDED.last_user_message_at, last_activity_at = EXCLUDED.last_activity_at,
             last_actor_type = 'user', last_activity_type = 'message', updated_at = EXCLUDED.updated_at
       RETURNING *`;

export const OPEN_CHATS_BY_LINE = `SELECT line_id, count(*)::int AS n FROM chats
            WHERE tenant_id = $1 AND status = 'open' AND line_id = ANY($2) GROUP BY line_id`;

/**
 * Moves ($1 new activity ids, $2 message ids, $3 statuses, $4 errors, in order; $5 the time) of
 * messages that may belong to chats: the status_change activities of those that do, and the latest
 * status on each one's message activity. Named: lookups by message id (its partial index) only.
 */
export const STATUS_ACTIVITIES = `WITH moves AS (
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(id, message_id, status, error, n)
   ), sent AS (
     SELECT DISTINCT ON (a.message_id) a.id, a.message_id, a.chat_id, a.tenant_id
       FROM chat_activities a
      WHERE a.message_id = ANY($2::text[]) AND a.activity_type = 'message'
      ORDER BY a.message_id, a.seq
   ), latest AS (
     UPDATE chat_activities a SET message_status = l.status
       FROM (SELECT DISTINCT ON (s.id) s.id, mv.status FROM sent s JOIN moves mv USING (message_id) ORDER BY s.id, mv.n DESC) l
      WHERE a.id = l.id
   )
   INSERT INTO chat_activities (id, tenant_id, chat_id, actor_type, actor, activity_type, text, message_id, message_status, created_at)
   SELECT mv.id, s.tenant_id, s.chat_id, 'system', 'provider', 'status_change', mv.error, mv.message_id, mv.status, $5::timestamptz
     FROM moves mv JOIN sent s USING (message_id)
    ORDER BY mv.n`;

/** Rows of an export fetched a page at a time, so a large export never holds every activity in memory twice. */
export const EXPORT_PAGE_ROWS = 5_000;

/** A page of an export ($1 tenant, $2-$3 creation range of the chats, $4 one chat or null, $5 after this activity seq). */
export const EXPORT_PAGE = `SELECT a.seq, c.id AS chat_id, c.line_phone, c.contact_phone, c.contact_name, c.owner, c.status,
              a.created_at, a.actor_type, a.actor, a.activity_type, a.text, a.message_status
         FROM chats c JOIN chat_activities a ON a.chat_id = c.id
        WHERE c.tenant_id = $1 AND c.created_at >= $2 AND c.created_at < $3
          AND ($4::text IS NULL OR c.id = $4) AND a.activity_type IN ('message', 'note') AND a.seq > $5
        ORDER BY a.seq LIMIT ${EXPORT_PAGE_ROWS}`;
