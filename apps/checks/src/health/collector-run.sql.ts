/** The SQL of CollectorRunStore (collector_runs, read for database health). */

export const HEALTH = `SELECT database_id,
              CASE WHEN finished_at >= $3 AND finished_at < $4 THEN floor(extract(epoch FROM finished_at - $3) / 3600)::int END AS hour,
              (finished_at > $5 AND finished_at <= $6) AS in_window,
              count(*) FILTER (WHERE outcome = 'success')::int AS ok, count(*)::int AS total, avg(latency_ms)::float AS latency
         FROM collector_runs
        WHERE country = $1 AND database_id = ANY($2) AND finished_at >= $7 AND finished_at < $8
        GROUP BY 1, 2, 3`;
