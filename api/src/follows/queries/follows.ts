import type { DataSource, EntityManager } from 'typeorm';
import { mediaUrl } from '../../media/media.js';
import type { FollowedStore } from '../../rules/follows.js';
import { PUBLIC_MERCHANT_SQL, STORE_JOIN, STORE_NAME_SQL } from '../../storefront/queries/store-identity.js';

/** A store shoppers may follow: one shown to them (see PUBLIC_MERCHANT_SQL). */
export const FOLLOWABLE_STORE = `SELECT m.id FROM merchants m WHERE m.id = $1 AND ${PUBLIC_MERCHANT_SQL}`;

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
 * listing read model). The list is short (STORE_FOLLOWS.maxPerAccount), so it is read whole.
 */
export async function followedStores(
  dataSource: Pick<DataSource, 'query'>,
  userId: number,
  merchantId?: number,
): Promise<FollowedStore[]> {
  const rows = await dataSource.query(
    `SELECT m.id AS "merchantId", m.slug, ${STORE_NAME_SQL} AS "storeName", s.merchant_logo_id AS logo,
            f.followed_at AS "followedAt",
            (SELECT count(*)::int FROM coupon_listings l
              WHERE l.merchant_id = m.id AND l.expires_at > now()) AS "liveCoupons"
     FROM store_follows f JOIN merchants m ON m.id = f.merchant_id ${STORE_JOIN}
     WHERE f.user_id = $1 AND ($2::int IS NULL OR f.merchant_id = $2) AND ${PUBLIC_MERCHANT_SQL}
     ORDER BY lower(${STORE_NAME_SQL}), m.id`,
    [userId, merchantId ?? null],
  );
  type Row = Omit<FollowedStore, 'logoUrl' | 'followedAt'> & { logo: string | null; followedAt: Date };
  return rows.map(({ logo, followedAt, ...store }: Row) => ({
    ...store,
    logoUrl: mediaUrl(logo),
    followedAt: new Date(followedAt).toISOString(),
  }));
}
