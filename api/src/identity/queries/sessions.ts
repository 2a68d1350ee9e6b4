/** SQL of sessions. Tokens are stored as SHA-256 digests; `$idle` is SESSION_IDLE_HOURS. */

export const START_SESSION = `
  INSERT INTO sessions (cookie_token_hash, bearer_token_hash, xsrf_token, role, account_id, expires_at, user_agent)
  VALUES ($1, $2, $3, $4, $5, $6, $7)
  RETURNING id`;

/** A live session: not expired and used within the idle limit ($2 hours). */
export const FIND_SESSION = (column: 'cookie_token_hash' | 'bearer_token_hash') => `
  SELECT s.id, s.role, s.account_id, s.xsrf_token, s.last_used_at < now() - interval '1 minute' AS stale,
         coalesce(u.user_name, m.merchant_name, a.username) AS name
  FROM sessions s
  LEFT JOIN users u ON s.role = 'user' AND u.id = s.account_id
  LEFT JOIN merchants m ON s.role = 'merchant' AND m.id = s.account_id
  LEFT JOIN admins a ON s.role = 'admin' AND a.id = s.account_id
  WHERE s.${column} = $1 AND s.expires_at > now() AND s.last_used_at > now() - make_interval(hours => $2)`;

/** Use is written at most once a minute per session, not on every request. */
export const TOUCH_SESSION = 'UPDATE sessions SET last_used_at = now() WHERE id = $1';

export const END_SESSION = 'DELETE FROM sessions WHERE id = $1';

/** Every session of an account but one ($3, null for none). */
export const END_ACCOUNT_SESSIONS = `
  DELETE FROM sessions WHERE role = $1 AND account_id = $2 AND ($3::uuid IS NULL OR id <> $3::uuid)`;

export const LIST_ACCOUNT_SESSIONS = `
  SELECT id, created_at AS "createdAt", last_used_at AS "lastUsedAt", expires_at AS "expiresAt",
         user_agent AS "userAgent", bearer_token_hash IS NOT NULL AS "apiClient"
  FROM sessions
  WHERE role = $1 AND account_id = $2 AND expires_at > now() AND last_used_at > now() - make_interval(hours => $3)
  ORDER BY last_used_at DESC, id`;

export const PURGE_ENDED_SESSIONS = `
  DELETE FROM sessions WHERE expires_at <= now() OR last_used_at <= now() - make_interval(hours => $1)`;

/** Ends every session of an account, in the caller's transaction (an account's deletion confirmed). */
export async function endAccountSessions(
  manager: { query: (sql: string, parameters: unknown[]) => Promise<unknown> },
  role: 'user' | 'merchant',
  accountId: number,
): Promise<void> {
  await manager.query(END_ACCOUNT_SESSIONS, [role, accountId, null]);
}
