/** SQL that removes the claims kept after an erasure once their retention period is over. */
import type { EntityManager } from 'typeorm';
import { changedRows } from '../../privacy/person.js';

/**
 * Deletes an erased shopper's missing-cashback claims and queued purchases (their invoices went with
 * the erasure), before the earnings they name.
 */
export async function removeExpiredClaims(
  manager: EntityManager,
  shopperId: number,
): Promise<{ missing_cashback_claims: number }> {
  return {
    missing_cashback_claims: await changedRows(
      manager,
      'DELETE FROM missing_cashback_claims WHERE user_id = $1',
      [shopperId],
    ),
  };
}
