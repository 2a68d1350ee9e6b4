/** SQL of the sign-in throttle (`sign_in_failures`: one row per failed sign-in and key). */

/** Failures of each given key within its own window: $1 keys, $2 windows in minutes (same order). */
export const FAILURES_BY_KEY = `
  SELECT k.key, (SELECT count(*)::int FROM sign_in_failures f
                 WHERE f.key = k.key AND f.failed_at > now() - make_interval(mins => k.minutes)) AS failures
  FROM unnest($1::text[], $2::int[]) AS k(key, minutes)`;

export const RECORD_FAILURES = 'INSERT INTO sign_in_failures (key) SELECT unnest($1::text[])';

export const FORGIVE_KEY = 'DELETE FROM sign_in_failures WHERE key = $1';

export const PURGE_OLD_FAILURES =
  'DELETE FROM sign_in_failures WHERE failed_at <= now() - make_interval(mins => $1)';
