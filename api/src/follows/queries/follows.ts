import type { DataSource, EntityManager } from 'typeorm';
import { liveListingCounts } from '../../coupons/queries/listed-coupons.js';
import { merchantsAsStores } from '../../identity/queries/store-identities.js';
import { mediaUrl } from '../../media/media.js';
import type { FollowedStore } from '../../rules/follows.js';
import { storeIdentities } from '../../storefront/queries/store-identity.js';

/** Whether shoppers may follow the store: one shown to them (identity's rule). */
export async function isFollowable(
  reader: Pick<EntityManager, 'query'>,
  merchantId: number,
): Promise<boolean> {
  const merchants = await merchantsAsStores(reader, [merchantId]);
  return merchants.get(merchantId)?.isPublic === true;
}

export const COUNT_FOLLOWS = 'SELECT count(*)::int AS follows FROM store_follows WHERE user_id = $1';

export const FOLLOW = 'SELECT 1 FROM store_follows WHERE user_id = $1 AND merchant_id = $2';

export const INSERT_FOLLOW = 'INSERT INTO store_follows (user_id, merchant_id) VALUES ($1, $2)';

/** Ends a follow and drops the alerts not yet mailed for it. */
export async function deleteFollow(
  manager: EntityManager,
  userId: number,
  merchantId: number,
): Promise<boolean> {
  const [, deleted] = await manager.query(
    'DELETE FROM store_follows WHERE user_id = $1 AND merchant_id = $2',
    [userId, merchantId],
  );
  await manager.query(
    'DELETE FROM store_alerts WHERE user_id = $1 AND merchant_id = $2 AND mailed_at IS NULL',
    [userId, merchantId],
  );
  return deleted > 0;
}

/**
 * The account's followed stores that shoppers may see, A-Z, with their live coupons (from the
 * listing read model). The list is short (STORE_FOLLOWS.maxPerAccount), so it is read whole; the
 * stores' identities and counts are asked of their owners once for the whole list.
 */
export async function followedStores(
  dataSource: Pick<DataSource, 'query'>,
  userId: number,
  merchantId?: number,
): Promise<FollowedStore[]> {
  const follows: Array<{ merchantId: number; followedAt: Date }> = await dataSource.query(
    `SELECT merchant_id AS "merchantId", followed_at AS "followedAt" FROM store_follows
     WHERE user_id = $1 AND ($2::int IS NULL OR merchant_id = $2)`,
    [userId, merchantId ?? null],
  );
  const identities = await storeIdentities(
    dataSource,
    follows.map((follow) => follow.merchantId),
  );
  const shown = follows.flatMap(({ merchantId, followedAt }) => {
    const store = identities.get(merchantId);
    return store?.isPublic ? [{ store, followedAt }] : [];
  });
  const liveCoupons = await liveListingCounts(
    dataSource,
    shown.map(({ store }) => store.id),
  );
  return shown
    .sort((a, b) => byName(a.store.name, b.store.name) || a.store.id - b.store.id)
    .map(({ store, followedAt }) => ({
      merchantId: store.id,
      slug: store.slug as string,
      storeName: store.name,
      logoUrl: mediaUrl(store.logoId),
      liveCoupons: liveCoupons.get(store.id) ?? 0,
      followedAt: new Date(followedAt).toISOString(),
    }));
}

/**
 * A-Z whatever the case, as the database orders `lower(name)` under its collation (C.UTF-8: by
 * code point).
 */
const byName = (a: string, b: string) => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
};
