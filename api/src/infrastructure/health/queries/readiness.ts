/** SQL of the readiness checks, run on the probe's own connection. */

/**
 * Statements of this database waiting for a lock: how many, the longest wait (PostgreSQL 14+
 * records when each wait began) and the tables they wait for. A row lock is waited for through
 * the holder's transaction id, which names no table: those count without a name. Waits are
 * measured to the clock's present: `now()` is when the probe's transaction began, and a wait that
 * began since would read as negative.
 */
export const LOCK_WAITS = `
  SELECT count(*)::int AS waiting,
         coalesce(round(extract(epoch FROM max(clock_timestamp() - l.waitstart)) * 1000), 0)::int AS longest_ms,
         coalesce(array_agg(DISTINCT c.relname::text) FILTER (WHERE c.relname IS NOT NULL), '{}'::text[]) AS tables
  FROM pg_locks l
  JOIN pg_stat_activity a ON a.pid = l.pid
  LEFT JOIN pg_class c ON c.oid = l.relation
  WHERE NOT l.granted AND a.datname = current_database()`;
