import type { EntityManager } from 'typeorm';

/** Each store's first coupon (its lowest id), by store; stores without a coupon are left out. */
export async function firstCouponOfStores(
  reader: Pick<EntityManager, 'query'>,
  merchantIds: readonly number[],
): Promise<Map<number, number>> {
  if (merchantIds.length === 0) return new Map();
  const rows: Array<{ merchantId: number; couponId: number }> = await reader.query(
    `SELECT merchant_id AS "merchantId", min(id) AS "couponId" FROM coupons
     WHERE merchant_id = ANY($1::int[]) GROUP BY merchant_id`,
    [merchantIds],
  );
  return new Map(rows.map((row) => [row.merchantId, row.couponId]));
}
