/** The SQL of RetentionStore: constant text, values as $n parameters. */

/** Rows deleted per statement (a run stays short; the next hour continues). */
export const RETENTION_BATCH = 5_000;

/** Up to RETENTION_BATCH webhook events processed (or received, when never processed) before $1. */
export const PRUNE_WEBHOOK_EVENTS = `DELETE FROM webhook_events WHERE digest IN (
        SELECT digest FROM webhook_events WHERE COALESCE(processed_at, received_at) < $1 LIMIT ${RETENTION_BATCH})`;

/** Up to RETENTION_BATCH quality ratings before $1, except the newest of each outbound before it. */
export const PRUNE_QUALITY_HISTORY = `DELETE FROM outbound_quality_history WHERE id IN (
        SELECT h.id FROM outbound_quality_history h
         WHERE h.at < $1
           AND EXISTS (SELECT 1 FROM outbound_quality_history n
                        WHERE n.outbound_id = h.outbound_id AND n.at < $1 AND (n.at, n.id) > (h.at, h.id))
         LIMIT ${RETENTION_BATCH})`;
