// The SQL of ProfileFoldingStore (folding facts into profiles, identity resolution, merges).

/**
 * Counters and latest results of a profile from its transactions ("latest" by occurred_at, so a
 * late event does not replace a newer result); `$1` is the profile id.
 */
const AGGREGATES = `
  SELECT count(*)::int AS transactions_count,
         count(*) FILTER (WHERE product = 'check')::int AS checks_count,
         (array_agg(score ORDER BY occurred_at DESC, id DESC) FILTER (WHERE product = 'check' AND score IS NOT NULL))[1] AS latest_check_score,
         (array_agg(status ORDER BY occurred_at DESC, id DESC) FILTER (WHERE product = 'check'))[1] AS latest_check_status,
         count(*) FILTER (WHERE product = 'validation')::int AS validations_count,
         count(*) FILTER (WHERE product = 'validation' AND status = 'failure')::int AS failed_validations_count,
         (array_agg(status ORDER BY occurred_at DESC, id DESC) FILTER (WHERE product = 'validation'))[1] AS latest_validation_status,
         count(*) FILTER (WHERE product = 'process')::int AS processes_count,
         (array_agg(status ORDER BY occurred_at DESC, id DESC) FILTER (WHERE product = 'process'))[1] AS latest_process_status,
         count(*) FILTER (WHERE product = 'engagement-chat')::int AS chats_count,
         min(occurred_at) AS first_at, max(occurred_at) AS last_at
    FROM transactions WHERE profile_id = $1`;

const AGGREGATE_SETS = `
  transactions_count = a.transactions_count, checks_count = a.checks_count,
  latest_check_score = a.latest_check_score, latest_check_status = a.latest_check_status,
  validations_count = a.validations_count, failed_validations_count = a.failed_validations_count,
  latest_validation_status = a.latest_validation_status, processes_count = a.processes_count,
  latest_process_status = a.latest_process_status, chats_count = a.chats_count,
  first_transaction_at = a.first_at, last_transaction_at = a.last_at`;

/** The profiles holding any of the identifier keys $2, oldest first. */
export const PROFILES_OF_IDENTIFIERS = `SELECT DISTINCT i.profile_id, p.created_at FROM profile_identifiers i JOIN profiles p ON p.id = i.profile_id
        WHERE i.tenant_id = $1 AND i.key = ANY($2::text[]) ORDER BY p.created_at, i.profile_id`;

/** A new profile. */
export const INSERT_PROFILE = `INSERT INTO profiles (id, tenant_id, created_at, updated_at) VALUES ($1, $2, $3, $3)`;

/** The fact's identifiers ($4 keys, $5 kinds) given to profile $2 (those already held stay). */
export const INSERT_IDENTIFIERS = `INSERT INTO profile_identifiers (tenant_id, key, kind, profile_id, created_at)
       SELECT $1, k.key, k.kind, $2, $3 FROM unnest($4::text[], $5::text[]) AS k(key, kind)
       ON CONFLICT (tenant_id, key) DO NOTHING`;

/** The transaction of a source record: a later event of the record updates it, an older one only fills gaps. */
export const UPSERT_TRANSACTION = `INSERT INTO transactions (id, tenant_id, profile_id, product, source_id, event_type, status, score, occurred_at, data, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $11)
       ON CONFLICT (tenant_id, product, source_id) DO UPDATE SET
         profile_id = EXCLUDED.profile_id,
         event_type = CASE WHEN EXCLUDED.occurred_at >= transactions.occurred_at THEN EXCLUDED.event_type ELSE transactions.event_type END,
         status = CASE WHEN EXCLUDED.occurred_at >= transactions.occurred_at THEN EXCLUDED.status ELSE transactions.status END,
         score = CASE WHEN EXCLUDED.occurred_at >= transactions.occurred_at THEN COALESCE(EXCLUDED.score, transactions.score) ELSE transactions.score END,
         data = CASE WHEN EXCLUDED.occurred_at >= transactions.occurred_at THEN transactions.data || EXCLUDED.data ELSE EXCLUDED.data || transactions.data END,
         occurred_at = GREATEST(EXCLUDED.occurred_at, transactions.occurred_at),
         updated_at = EXCLUDED.updated_at
       RETURNING id`;

/** The messaging line ($3) the profile was seen on, at $4. */
export const UPSERT_PROFILE_LINE = `INSERT INTO profile_lines (tenant_id, profile_id, waba_phone_number, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (profile_id, waba_phone_number) DO UPDATE SET
           first_seen_at = LEAST(profile_lines.first_seen_at, EXCLUDED.first_seen_at),
           last_seen_at = GREATEST(profile_lines.last_seen_at, EXCLUDED.last_seen_at)`;

/** Contacts with one of the phone numbers $3 link to profile $2. */
export const LINK_CONTACTS = `UPDATE contacts SET profile_id = $2 WHERE tenant_id = $1 AND phone_number = ANY($3::text[]) AND profile_id IS DISTINCT FROM $2`;

/**
 * Basic info (a newer fact overwrites, an older one only fills what is missing) of the `columns`
 * (constant names), and the aggregates recomputed from the transactions: $1 profile, $2 occurred_at,
 * $3 now; then one parameter per column.
 */
export const updateProfile = (columns: string[]) => {
  const sets = columns.map(
    (c, i) =>
      `${c} = CASE WHEN $${i + 4}::text IS NULL THEN p.${c} WHEN p.${c} IS NULL OR p.info_updated_at IS NULL OR $2 >= p.info_updated_at THEN $${i + 4}::text ELSE p.${c} END`,
  );
  return `UPDATE profiles p SET ${sets.join(', ')},
         info_updated_at = GREATEST(p.info_updated_at, $2), updated_at = $3, ${AGGREGATE_SETS}
       FROM (${AGGREGATES}) a
       WHERE p.id = $1`;
};

/** Adds the tags $2 profile $1 lacks; answers those it added. */
export const ADD_TAGS = `WITH current_tags AS (SELECT tags FROM profiles WHERE id = $1),
       new_tags AS (
         SELECT DISTINCT t AS tag FROM unnest($2::text[]) AS t, current_tags c WHERE NOT t = ANY(c.tags)
       ), updated AS (
         UPDATE profiles SET tags = tags || ARRAY(SELECT tag FROM new_tags ORDER BY tag) WHERE id = $1 AND EXISTS (SELECT 1 FROM new_tags)
       )
       SELECT tag FROM new_tags ORDER BY tag`;

/** A tag added to a profile, in its history. */
export const TAG_ADDED = `INSERT INTO tag_history (id, tenant_id, profile_id, tag, action, source, occurred_at, created_at) VALUES ($1, $2, $3, $4, 'added', $5, $6, $7)`;

/** An identifier of the fact ($3) profile $2 holds: why it is merged. */
export const SHARED_IDENTIFIER = `SELECT key FROM profile_identifiers WHERE tenant_id = $1 AND profile_id = $2 AND key = ANY($3::text[]) ORDER BY key LIMIT 1`;

/** Moves the rows of `table` (a constant name) of profile $3 to profile $1. */
export const moveRows = (table: string) =>
  `UPDATE ${table} SET profile_id = $1 WHERE tenant_id = $2 AND profile_id = $3`;

/** Profile $2's lines joined into profile $1's. */
export const MERGE_PROFILE_LINES = `INSERT INTO profile_lines (tenant_id, profile_id, waba_phone_number, first_seen_at, last_seen_at)
       SELECT tenant_id, $1, waba_phone_number, first_seen_at, last_seen_at FROM profile_lines WHERE profile_id = $2
       ON CONFLICT (profile_id, waba_phone_number) DO UPDATE SET
         first_seen_at = LEAST(profile_lines.first_seen_at, EXCLUDED.first_seen_at),
         last_seen_at = GREATEST(profile_lines.last_seen_at, EXCLUDED.last_seen_at)`;

/** A merged profile's lines (joined into the survivor's). */
export const DELETE_PROFILE_LINES = `DELETE FROM profile_lines WHERE profile_id = $1`;

/** Basic info the survivor $1 lacks comes from the merged profile $2; tags are united. */
export const FILL_FROM_MERGED = `UPDATE profiles p SET
         ${[
           'name',
           'first_name',
           'last_name',
           'country',
           'phone_number',
           'email',
           'document_number',
           'document_type',
           'birthday',
           'document_issue_date',
           'gender',
         ]
           .map((c) => `${c} = COALESCE(p.${c}, o.${c})`)
           .join(', ')},
         tags = p.tags || ARRAY(SELECT t FROM unnest(o.tags) t WHERE NOT t = ANY(p.tags)),
         updated_at = $3
       FROM profiles o WHERE p.id = $1 AND o.id = $2`;

/** Profile $2 merged into $1. */
export const MARK_MERGED = `UPDATE profiles SET merged_into = $1, updated_at = $3 WHERE id = $2`;

/** Profiles merged into $2 before now point at $1. */
export const REPOINT_MERGED = `UPDATE profiles SET merged_into = $1 WHERE merged_into = $2`;

/** The record of a merge. */
export const INSERT_MERGE = `INSERT INTO profile_merges (id, tenant_id, profile_id, merged_profile_id, identifier, merged_at) VALUES ($1, $2, $3, $4, $5, $6)`;
