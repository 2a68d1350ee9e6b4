import type { EntityManager } from 'typeorm';
import { LIVE_COUPON_SQL } from './coupon-status.js';

type Reader = Pick<EntityManager, 'query'>;

/** The store's live coupons' ids, in id order: those a change of the store shows again or hides. */
export async function liveCouponIdsOfStore(reader: Reader, merchantId: number): Promise<number[]> {
  const coupons: Array<{ id: number }> = await reader.query(
    `SELECT id FROM coupons c WHERE c.merchant_id = $1 AND ${LIVE_COUPON_SQL('c')} ORDER BY c.id`,
    [merchantId],
  );
  return coupons.map(({ id }) => id);
}

/** The stores of the coupons, each once: a listing shows its store's identity beside the coupon. */
export async function storesOfCoupons(reader: Reader, couponIds: readonly number[]): Promise<number[]> {
  if (couponIds.length === 0) return [];
  const rows: Array<{ merchantId: number }> = await reader.query(
    'SELECT DISTINCT merchant_id AS "merchantId" FROM coupons WHERE id = ANY($1::int[])',
    [couponIds],
  );
  return rows.map((row) => row.merchantId);
}

/**
 * Whether the store has a live coupon (a store without a saved page still has one then). Read by
 * the store's index alone (OFFSET 0): planned with the index of live coupons by expiry as well, it
 * read every live coupon of the catalogue (20 ms at 100,000), and the workers build a store page
 * for every coupon an import approves.
 */
export async function storeHasLiveCoupon(reader: Reader, merchantId: number): Promise<boolean> {
  const rows = await reader.query(
    `SELECT 1 WHERE EXISTS (SELECT 1 FROM (SELECT status, expiry_date FROM coupons WHERE merchant_id = $1 OFFSET 0) c
                            WHERE ${LIVE_COUPON_SQL('c')})`,
    [merchantId],
  );
  return rows.length > 0;
}

/** Each store's listed coupons that have not expired, by store id (0 for a store with none listed). */
export async function liveListingCounts(
  reader: Reader,
  merchantIds: readonly number[],
): Promise<Map<number, number>> {
  if (merchantIds.length === 0) return new Map();
  const rows: Array<{ merchantId: number; count: number }> = await reader.query(
    `SELECT merchant_id AS "merchantId", count(*)::int AS count FROM coupon_listings
     WHERE merchant_id = ANY($1::int[]) AND expires_at > now() GROUP BY merchant_id`,
    [merchantIds],
  );
  return new Map(rows.map((row) => [row.merchantId, row.count]));
}

/** How many coupons the public lists show now (listed and not expired). */
export async function listedCouponCount(reader: Reader): Promise<number> {
  const [row] = await reader.query('SELECT count(*)::int AS n FROM coupon_listings WHERE expires_at > now()');
  return row.n;
}

/** The coupons the public lists show now (listed and not expired), by id, with their store and title. */
export function listedCoupons(
  reader: Reader,
): Promise<Array<{ id: number; merchantId: number; title: string }>> {
  return reader.query(
    `SELECT coupon_id AS id, merchant_id AS "merchantId", title FROM coupon_listings
     WHERE expires_at > now() ORDER BY coupon_id`,
  );
}
