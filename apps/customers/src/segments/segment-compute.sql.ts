// The SQL of SegmentComputeStore (a segment's compute: its steps, members and progress).

import { SEGMENT_VARIABLES } from '../profiles/segment-variables';

const VARIABLE_NAMES = Object.keys(SEGMENT_VARIABLES);

/** The compute $2 of segment $1 failed with the message $3 at $4. */
export const COMPUTE_FAILED = `UPDATE segments SET compute_status = 'failed', compute_error = $3, compute_finished_at = $4 WHERE id = $1 AND compute_id = $2`;

/** The tenant's live profiles. */
export const COUNT_PROFILES = `SELECT count(*)::int AS total FROM profiles WHERE tenant_id = $1 AND merged_into IS NULL`;

/** The compute $2 of segment $1 runs: started at $3 over $4 profiles, evaluated by $5 ($6: why not in SQL). */
export const COMPUTE_RUNNING = `UPDATE segments SET compute_status = 'running', compute_started_at = $3, compute_total = $4,
           compute_evaluation = $5, compute_fallback_reason = $6 WHERE id = $1 AND compute_id = $2`;

/** The last profile id of a step: the $3-th live profile after $2. */
export const STEP_BOUND = `SELECT id FROM profiles WHERE tenant_id = $1 AND merged_into IS NULL AND id > $2 ORDER BY id OFFSET $3 LIMIT 1`;

/**
 * The members of a push-down step as one text array in id order, and their count: live profiles after
 * $2 (up to the `range` bound) matching `where` (the translated rule, its parameters from $4).
 */
export const selectMembers = (
  where: string,
  range: string,
) => `SELECT array_agg(p.id ORDER BY p.id)::text AS ids, count(*)::int AS n
               FROM profiles p CROSS JOIN (SELECT CAST($3 AS timestamptz) AS since) prm
              WHERE p.tenant_id = $1 AND p.merged_into IS NULL AND p.id > $2${range} AND ${where}`;

/** Members of compute $1 of segment $2, from the text array $3. */
export const INSERT_SELECTED_MEMBERS = `INSERT INTO segment_members (compute_id, profile_id, segment_id)
               SELECT $1, id, $2 FROM unnest(CAST($3 AS text[])) AS id`;

/** A batch of $4 live profiles after $2 with every variable's value (`v0`, `v1`, … in SEGMENT_VARIABLES order), for the Node evaluation. */
export const PROFILE_VARIABLES = `SELECT p.id AS "__id", ${VARIABLE_NAMES.map((v, i) => `(${SEGMENT_VARIABLES[v].sql}) AS "v${i}"`).join(', ')}
               FROM profiles p CROSS JOIN (SELECT CAST($3 AS timestamptz) AS since) prm
              WHERE p.tenant_id = $1 AND p.merged_into IS NULL AND p.id > $2 ORDER BY p.id LIMIT $4`;

/** Members of compute $1 of segment $2, from the list $3. */
export const INSERT_MEMBERS = `INSERT INTO segment_members (compute_id, profile_id, segment_id) SELECT $1, id, $2 FROM unnest($3::text[]) AS id`;

/** A step's progress: $3 more matched, $5 more processed (all when $4: the last step), the cursor at $6. */
export const STEP_DONE = `UPDATE segments SET compute_matched = compute_matched + $3,
             compute_processed = CASE WHEN $4 THEN compute_total ELSE LEAST(compute_total, compute_processed + $5) END,
             compute_cursor = $6 WHERE id = $1 AND compute_id = $2`;

/** The compute's members become the segment's, at $3. */
export const COMPUTE_COMPLETED = `UPDATE segments SET compute_status = 'completed', compute_finished_at = $3, computed_at = $3,
         members_compute_id = compute_id, members_count = compute_matched WHERE id = $1 AND compute_id = $2`;

/** The members of the segment's other computes. */
export const DROP_OLD_MEMBERS = `DELETE FROM segment_members WHERE segment_id = $1 AND compute_id <> $2`;

/** A deleted segment's members. */
export const DELETE_MEMBERS = `DELETE FROM segment_members WHERE segment_id = $1`;
