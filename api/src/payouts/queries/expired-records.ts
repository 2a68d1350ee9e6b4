/** SQL that removes the payouts kept after an erasure once their retention period is over. */
import type { EntityManager } from 'typeorm';
import { changedRows } from '../../privacy/person.js';

/** Deletes an erased shopper's payouts (amounts, dates, bank references and states): nothing references them. */
export async function removeExpiredPayouts(
  manager: EntityManager,
  shopperId: number,
): Promise<{ payouts: number }> {
  return { payouts: await changedRows(manager, 'DELETE FROM payouts WHERE user_id = $1', [shopperId]) };
}
