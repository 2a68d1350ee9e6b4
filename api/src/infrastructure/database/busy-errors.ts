/**
 * Errors that say "not now" rather than "wrong": a bounded wait ran out (statement or lock timeout,
 * no pool connection in time), or the database is momentarily unable to serve. The API answers them
 * with 503 and Retry-After; the same request may succeed a moment later.
 */
const BUSY_CODES: Record<string, string> = {
  '57014': 'statement timeout', // query_canceled: statement_timeout (or a cancelled query)
  '55P03': 'lock timeout', // lock_not_available: lock_timeout
  '25P03': 'idle transaction timeout', // idle_in_transaction_session_timeout ended the connection
  '40P01': 'deadlock', // one of two transactions is chosen to fail; the other goes on
  '53300': 'too many connections',
  '57P03': 'database starting up',
  '57P01': 'database shutting down',
  ECONNREFUSED: 'database unreachable',
};

/** pg-pool's messages for a wait that ran out (a free connection, a new one opening). */
const BUSY_MESSAGES: ReadonlyArray<[RegExp, string]> = [
  [/timeout exceeded when trying to connect/, 'no pool connection in time'],
  [/Connection terminated due to connection timeout/, 'no pool connection in time'],
];

/** Why the error is a momentary one, or undefined when it is not. */
export function busyReason(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  // TypeORM's QueryFailedError carries the driver's error (and copies its code onto itself).
  const driverError = (error as { driverError?: unknown }).driverError;
  for (const candidate of [error, driverError]) {
    const code = (candidate as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string' && BUSY_CODES[code]) return BUSY_CODES[code];
  }
  return BUSY_MESSAGES.find(([pattern]) => pattern.test(error.message))?.[1];
}
