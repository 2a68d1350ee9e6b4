/** SQL that removes a forgotten shopper's account row once nothing kept needs it. */
import { type EntityManager, QueryFailedError } from 'typeorm';
import { changedRows } from '../../privacy/person.js';

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Deletes an erased shopper's pseudonymous row (only a row erasure forgot: its password hash is
 * `!`), unless a record kept for longer still references it: a referrer's bonus naming the shopper
 * as the one referred, or an earning of theirs such a bonus was earned on. The foreign keys know
 * every such reference, including ones added later, so the row is tried and, if one refuses, kept
 * (the savepoint undoes only the attempt). A merchant's row stays: it is the store brand that
 * coupons, clicks and other shoppers' earnings name.
 */
export async function removeForgottenShopper(
  manager: EntityManager,
  shopperId: number,
): Promise<{ users: number; kept: boolean }> {
  await manager.query('SAVEPOINT forgotten_shopper');
  try {
    const users = await changedRows(manager, "DELETE FROM users WHERE id = $1 AND password_hash = '!'", [
      shopperId,
    ]);
    await manager.query('RELEASE SAVEPOINT forgotten_shopper');
    return { users, kept: false };
  } catch (error) {
    if (
      !(
        error instanceof QueryFailedError &&
        (error.driverError as { code?: string }).code === FOREIGN_KEY_VIOLATION
      )
    )
      throw error;
    await manager.query('ROLLBACK TO SAVEPOINT forgotten_shopper');
    return { users: 0, kept: true };
  }
}
