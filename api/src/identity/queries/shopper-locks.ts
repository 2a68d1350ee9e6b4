import type { EntityManager } from 'typeorm';

/**
 * How strongly a feature holds a shopper's account row: `FOR NO KEY UPDATE` excludes the same lock
 * but not the key-share locks that rows referring to the user take (sessions, votes);
 * `FOR UPDATE` excludes those too.
 */
export type ShopperLock = 'FOR UPDATE' | 'FOR NO KEY UPDATE';

/**
 * Locks the shopper's account row until the caller's transaction ends, so that a feature's
 * changes of one shopper (payouts and the balance, follows and their limit) run one after the
 * other. Answers whether the shopper exists.
 */
export async function lockShopper(manager: Pick<EntityManager, 'query'>, userId: number, lock: ShopperLock) {
  const rows: unknown[] = await manager.query(`SELECT id FROM users WHERE id = $1 ${lock}`, [userId]);
  return rows.length > 0;
}
