import type { EntityManager } from 'typeorm';

/**
 * Whether the merchant's coupon was live at `at`: approved before it, not ended (withdrawn or
 * expired) before it, and not past its expiry date (if it has one). A purchase reported without a
 * click earns cashback only with such a coupon.
 */
export async function couponWasLiveAt(
  reader: Pick<EntityManager, 'query'>,
  couponId: unknown,
  merchantId: number,
  at: Date,
): Promise<boolean> {
  const rows: unknown[] = await reader.query(
    `SELECT 1 FROM coupons
     WHERE id = $1 AND merchant_id = $2 AND approved_at IS NOT NULL AND approved_at <= $3
       AND (ended_at IS NULL OR ended_at > $3) AND (expiry_date IS NULL OR expiry_date > $3)`,
    [couponId, merchantId, at],
  );
  return rows.length > 0;
}
