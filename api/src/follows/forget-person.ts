import type { EntityManager } from 'typeorm';
import { changedRows, type ForgetOutcome, type PersonToForget } from '../privacy/person.js';

/** The stores the person follows and the alerts waiting for them go. */
export async function forgetFollows(manager: EntityManager, person: PersonToForget): Promise<ForgetOutcome> {
  if (person.kind !== 'shopper') return { removed: {}, anonymised: {} };
  const alerts = await changedRows(manager, 'DELETE FROM store_alerts WHERE user_id = $1', [person.id]);
  const follows = await changedRows(manager, 'DELETE FROM store_follows WHERE user_id = $1', [person.id]);
  return { removed: { store_alerts: alerts, store_follows: follows }, anonymised: {} };
}
