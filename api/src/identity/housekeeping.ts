import type { DataSource } from 'typeorm';
import { SIGN_IN_THROTTLE } from '../rules/accounts.js';

/** Deletes expired sessions and sign-in failures older than the throttle window. */
export async function purgeExpiredSignInData(
  dataSource: DataSource,
): Promise<{ sessions: number; failures: number }> {
  const [, sessions] = await dataSource.query('DELETE FROM sessions WHERE expires_at <= now()');
  const [, failures] = await dataSource.query(
    'DELETE FROM sign_in_failures WHERE failed_at <= now() - make_interval(mins => $1)',
    [SIGN_IN_THROTTLE.windowMinutes],
  );
  return { sessions: sessions ?? 0, failures: failures ?? 0 };
}
