/** SQL that removes the earnings kept after an erasure once their retention period is over. */
import type { EntityManager } from 'typeorm';
import { changedRows } from '../../privacy/person.js';

/**
 * Deletes an erased account's earnings (a shopper's cashback and referral bonuses, a merchant's
 * referral bonuses) and the notices mailed of them. A purchase a referral bonus of someone else was
 * earned on stays while that bonus does: the bonus is the referrer's record, kept for the
 * referrer's own period, and names its purchase. The account's claims go first (claims/), as a
 * queued purchase names its earning.
 */
export async function removeExpiredEarnings(
  manager: EntityManager,
  account: { kind: 'shopper' | 'merchant'; id: number },
): Promise<{ earnings: number; earning_notices: number; held: number }> {
  const owner = account.kind === 'shopper' ? 'user_id' : 'beneficiary_merchant_id';
  const notices =
    account.kind === 'shopper'
      ? await changedRows(manager, 'DELETE FROM earning_notices WHERE user_id = $1', [account.id])
      : 0;
  const earnings = await changedRows(
    manager,
    `DELETE FROM earnings e WHERE e.${owner} = $1
       AND NOT EXISTS (SELECT 1 FROM earnings bonus
                       WHERE bonus.source_earning_id = e.id AND bonus.${owner} IS DISTINCT FROM $1)`,
    [account.id],
  );
  const [{ held }]: Array<{ held: number }> = await manager.query(
    `SELECT count(*)::int AS held FROM earnings WHERE ${owner} = $1`,
    [account.id],
  );
  return { earnings, earning_notices: notices, held };
}
