import type { EntityManager } from 'typeorm';
import { accountRole, changedRows, type ForgetOutcome, type PersonToForget } from '../privacy/person.js';

/**
 * The person's votes stay, under the pseudonym instead of their account: tallies are counts of
 * rows (and the listings' copies were counted from the votes' events), so removing the rows would
 * change what shoppers were shown. A vote is one per visitor, coupon and day, and the pseudonym is
 * the person's alone, so the key stays unique.
 */
export async function forgetCouponVotes(
  manager: EntityManager,
  person: PersonToForget,
): Promise<ForgetOutcome> {
  const votes = await changedRows(manager, 'UPDATE coupon_votes SET visitor = $2 WHERE visitor = $1', [
    `${accountRole(person)}:${person.id}`,
    `forgotten:${person.pseudonym}`,
  ]);
  return { removed: {}, anonymised: { coupon_votes: votes } };
}
