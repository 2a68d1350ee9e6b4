import type { DataSource } from 'typeorm';
import { SIGN_IN_THROTTLE } from '../rules/accounts.js';
import { PURGE_ENDED_SESSIONS } from './queries/sessions.js';
import { PURGE_OLD_FAILURES } from './queries/sign-in-failures.js';

/** Deletes ended sessions (expired or idle) and sign-in failures older than the longest throttle window. */
export async function purgeExpiredSignInData(
  dataSource: DataSource,
  idleHours: number,
): Promise<{ sessions: number; failures: number }> {
  const [, sessions] = await dataSource.query(PURGE_ENDED_SESSIONS, [idleHours]);
  const [, failures] = await dataSource.query(PURGE_OLD_FAILURES, [SIGN_IN_THROTTLE.keepMinutes]);
  return { sessions: sessions ?? 0, failures: failures ?? 0 };
}
