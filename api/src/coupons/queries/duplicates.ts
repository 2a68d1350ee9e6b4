import type { EntityManager } from 'typeorm';

/**
 * Whether the store has another coupon, live or waiting for review, that this one repeats: the
 * same code (without case), or for a deal without a code the same title once normalised (case,
 * spaces and punctuation aside). Only coupons older than `couponId` count: the first one keeps it.
 * Taken under a lock of the store, so two imports adding the same code at once see each other.
 */
export async function repeatsAnotherCoupon(
  manager: EntityManager,
  coupon: { id: number; merchantId: number; code: string | null; title: string },
): Promise<boolean> {
  await manager.query("SELECT pg_advisory_xact_lock(hashtext('coupon-duplicates'), $1)", [coupon.merchantId]);
  const [row] = await manager.query(
    `SELECT 1 FROM coupons c
     WHERE c.merchant_id = $1 AND c.id < $2 AND c.status IN ('live', 'pending')
       AND (c.expiry_date IS NULL OR c.expiry_date > now())
       AND CASE WHEN $3::text IS NOT NULL THEN lower(c.coupon_code) = lower($3)
                ELSE c.coupon_code IS NULL AND ${NORMALISED('c.title')} = ${NORMALISED('$4::text')} END
     LIMIT 1`,
    [coupon.merchantId, coupon.id, coupon.code, coupon.title],
  );
  return row !== undefined;
}

const NORMALISED = (text: string) => `regexp_replace(lower(${text}), '[^[:alnum:]]+', '', 'g')`;

/** The store's coupons, live or waiting for review and not past their expiry, with this code (without case). */
export async function couponsWithCode(
  reader: Pick<EntityManager, 'query'>,
  merchantId: number,
  code: string,
): Promise<number[]> {
  const rows: Array<{ id: number }> = await reader.query(
    `SELECT id FROM coupons c
     WHERE c.merchant_id = $1 AND lower(c.coupon_code) = lower($2) AND c.status IN ('live', 'pending')
       AND (c.expiry_date IS NULL OR c.expiry_date > now())
     ORDER BY id`,
    [merchantId, code],
  );
  return rows.map((row) => row.id);
}
