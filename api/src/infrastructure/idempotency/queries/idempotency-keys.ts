/** SQL of the idempotency keys. `$1` caller, `$2` key throughout. */

/**
 * Takes the key for a new request: a key never seen, one past its replay period ($4 hours), or one
 * still held by a request that was abandoned ($5 seconds without an answer). Answers a row only
 * when the key was taken.
 */
export const CLAIM_KEY = `
  INSERT INTO idempotency_keys (caller, key, fingerprint) VALUES ($1, $2, $3)
  ON CONFLICT (caller, key) DO UPDATE
    SET fingerprint = EXCLUDED.fingerprint, status = NULL, headers = NULL, body = NULL,
        created_at = now(), completed_at = NULL
    WHERE idempotency_keys.created_at <= now() - make_interval(hours => $4)
       OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at <= now() - make_interval(secs => $5))
  RETURNING true AS claimed`;

export const FIND_KEY = `
  SELECT fingerprint, status, headers, body FROM idempotency_keys WHERE caller = $1 AND key = $2`;

export const COMPLETE_KEY = `
  UPDATE idempotency_keys SET status = $3, headers = $4, body = $5, completed_at = now()
  WHERE caller = $1 AND key = $2 AND status IS NULL`;

/** Gives up a key whose request got no answer worth replaying (a 5xx, a 429): a retry runs anew. */
export const RELEASE_KEY = 'DELETE FROM idempotency_keys WHERE caller = $1 AND key = $2 AND status IS NULL';

export const PURGE_KEYS =
  'DELETE FROM idempotency_keys WHERE created_at <= now() - make_interval(hours => $1)';
