import type { EntityManager } from 'typeorm';
import { changedRows, type ForgetOutcome, type PersonToForget } from '../privacy/person.js';

/**
 * The person's click-outs stay, so stores' and coupons' counts and the earnings that name a click
 * id hold, but no longer say whose they were nor from which address.
 */
export async function forgetClicks(manager: EntityManager, person: PersonToForget): Promise<ForgetOutcome> {
  if (person.kind !== 'shopper') return { removed: {}, anonymised: {} };
  const clicks = await changedRows(
    manager,
    'UPDATE clicks SET user_id = NULL, client_address_key = NULL WHERE user_id = $1',
    [person.id],
  );
  return { removed: {}, anonymised: { clicks } };
}
