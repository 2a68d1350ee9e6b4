import type { EntityManager } from 'typeorm';
import { changedRows, type ForgetOutcome, type PersonToForget } from '../privacy/person.js';

/**
 * Earnings stay as the law keeps them (amounts, dates, purchase references, states), under the
 * account's id, which after erasure names nobody: no column of theirs holds a personal field. The
 * notices of the person's earnings (what was mailed them and when) go.
 */
export async function forgetEarnings(manager: EntityManager, person: PersonToForget): Promise<ForgetOutcome> {
  if (person.kind !== 'shopper') return { removed: {}, anonymised: {} };
  const notices = await changedRows(manager, 'DELETE FROM earning_notices WHERE user_id = $1', [person.id]);
  return { removed: { earning_notices: notices }, anonymised: {} };
}
