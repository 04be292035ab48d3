/** The SQL of AgentStore: constant text, values as $n parameters. */

export const GROUP_COUNTERS = `WITH g AS (
         SELECT unnest(groups) AS name, status FROM agents WHERE tenant_id = $1),
       c AS (
         SELECT queue AS name, owner FROM chats WHERE tenant_id = $1 AND status = 'open'),
       names AS (SELECT name FROM g UNION SELECT name FROM c)
       SELECT n.name AS "group",
         (SELECT count(*) FROM g WHERE g.name = n.name AND g.status = 'online')::int AS agents_online,
         (SELECT count(*) FROM g WHERE g.name = n.name AND g.status = 'offline')::int AS agents_offline,
         (SELECT count(*) FROM c WHERE c.name = n.name AND c.owner IS NULL)::int AS chats_enqueued,
         (SELECT count(*) FROM c WHERE c.name = n.name AND c.owner IS NOT NULL)::int AS chats_assigned
       FROM names n ORDER BY n.name`;

export const TOTALS = `SELECT (SELECT count(*) FROM agents WHERE tenant_id = $1 AND status = 'online')::int AS online,
                (SELECT count(*) FROM agents WHERE tenant_id = $1 AND status = 'offline')::int AS offline,
                (SELECT count(*) FROM chats WHERE tenant_id = $1 AND status = 'open' AND owner IS NULL)::int AS enqueued,
                (SELECT count(*) FROM chats WHERE tenant_id = $1 AND status = 'open' AND owner IS NOT NULL)::int AS assigned`;

export const INSERT_IF_ABSENT = `INSERT INTO agents (tenant_id, email, user_id, status, groups, active_chats, created_at, updated_at)
       VALUES ($1, $2, $3, 'offline', '{}', 0, $4, $4) ON CONFLICT (tenant_id, email) DO NOTHING`;

export const INSERT_SETTINGS_IF_ABSENT = `INSERT INTO agent_settings (tenant_id, default_capacity, capacity_enabled, ruleset_strategy, updated_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (tenant_id) DO NOTHING`;

export const COUNT_ASSIGNED = `UPDATE agents SET active_chats = active_chats + 1, last_assigned_at = $3, updated_at = $3
        WHERE tenant_id = $1 AND email = $2`;

export const RELEASE = `UPDATE agents SET active_chats = active_chats - 1, updated_at = $3
        WHERE tenant_id = $1 AND email = $2 AND active_chats > 0`;

export const LOCK_AGENTS = `SELECT email FROM agents WHERE tenant_id = $1 AND email = ANY($2) ORDER BY email FOR UPDATE`;

export const HAS_ROOM = `SELECT 1 FROM agents WHERE tenant_id = $1 AND email = $2
         AND (NOT $3::boolean OR active_chats < COALESCE(capacity, $4::int))`;

/** A free online agent of the chat's queue ($1 tenant, $2 capacity enabled, $3 default capacity, $4 queue), in `order`, locked with `lock`. */
export const freeAgentSql = (order: string, lock: string) =>
  `SELECT email FROM agents
          WHERE tenant_id = $1 AND status = 'online'
            AND (NOT $2::boolean OR active_chats < COALESCE(capacity, $3::int))
            AND (cardinality(groups) = 0 OR $4 = ANY(groups))
          ORDER BY ${order}
          LIMIT 1 ${lock}`;
