import type { EntityManager } from 'typeorm';

type Reader = Pick<EntityManager, 'query'>;

/** Every coupon of the store, in any state, newest first: what its merchant picks one from. */
export function storeCouponTitles(
  reader: Reader,
  merchantId: number,
): Promise<Array<{ id: number; title: string }>> {
  return reader.query('SELECT id, title FROM coupons WHERE merchant_id = $1 ORDER BY id DESC', [merchantId]);
}

/** Whether the coupon is the store's own (another store's is as good as none). */
export async function isStoreCoupon(reader: Reader, couponId: number, merchantId: number): Promise<boolean> {
  const rows = await reader.query('SELECT id FROM coupons WHERE id = $1 AND merchant_id = $2', [
    couponId,
    merchantId,
  ]);
  return rows.length > 0;
}

/** Every coupon of the stores, in any state, by id: each with its store. */
export function couponsOfStores(
  reader: Reader,
  merchantIds: readonly number[],
): Promise<Array<{ id: number; merchantId: number }>> {
  return reader.query(
    'SELECT id, merchant_id AS "merchantId" FROM coupons WHERE merchant_id = ANY($1::int[]) ORDER BY id',
    [merchantIds],
  );
}
