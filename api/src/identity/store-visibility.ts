import type { EntityManager } from 'typeorm';

/**
 * Hides (or shows again) the merchant's store to shoppers: the flag is on the merchant's account,
 * read by every public read of its store. False when there is no such merchant.
 */
export async function setStoreHidden(
  manager: EntityManager,
  merchantId: number,
  hidden: boolean,
): Promise<boolean> {
  const changed = await manager.query(
    'WITH changed AS (UPDATE merchants SET store_hidden = $2 WHERE id = $1 RETURNING id) SELECT * FROM changed',
    [merchantId, hidden],
  );
  return changed.length > 0;
}
