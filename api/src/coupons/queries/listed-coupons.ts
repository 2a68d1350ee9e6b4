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
