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

/**
 * The event pipeline's backlog. Each part reads a partial index (unpublished, unprocessed,
 * failed), so the cost follows the backlog, not the log.
 */
export const OUTBOX_BACKLOG = `
  SELECT u.unpublished, u.oldest_unpublished_seconds, p.unprocessed, p.oldest_unprocessed_seconds, f.failed
  FROM (SELECT count(*)::int AS unpublished,
               coalesce(extract(epoch FROM now() - min(occurred_at)), 0)::float AS oldest_unpublished_seconds
        FROM outbox WHERE published_at IS NULL) u,
       (SELECT count(*)::int AS unprocessed,
               coalesce(extract(epoch FROM now() - min(published_at)), 0)::float AS oldest_unprocessed_seconds
        FROM outbox WHERE published_at IS NOT NULL AND processed_at IS NULL AND failed_at IS NULL) p,
       (SELECT count(*)::int AS failed FROM outbox WHERE failed_at IS NOT NULL) f`;
