import { type FindOptionsWhere, IsNull, LessThanOrEqual, MoreThan } from 'typeorm';
import type { Coupon, CouponStatus } from '../entities/coupon.entity.js';

/**
 * A coupon's status as every reader sees it. A coupon ends at its expiry date by the clock alone:
 * its row keeps `live` (the expiry sweep only announces the end, see commands/expiry.ts), so a
 * live coupon past its `expiry_date` is expired. Rows ended by the earlier sweep say `expired`
 * themselves. An open-ended coupon (no expiry date) never ends by the clock. These are the rule's
 * three forms: SQL, a TypeScript check, and the list filters.
 */
export const COUPON_STATUS_SQL = (coupon = 'c') =>
  `CASE WHEN ${coupon}.status = 'live' AND ${coupon}.expiry_date <= now() THEN 'expired' ELSE ${coupon}.status END`;

/** SQL: the coupon is live now (approved, not ended, before its expiry date). */
export const LIVE_COUPON_SQL = (coupon = 'c') =>
  `${coupon}.status = 'live' AND (${coupon}.expiry_date IS NULL OR ${coupon}.expiry_date > now())`;

export function couponStatus(coupon: Pick<Coupon, 'status' | 'expiryDate'>, now = new Date()): CouponStatus {
  return coupon.status === 'live' &&
    coupon.expiryDate !== null &&
    coupon.expiryDate.getTime() <= now.getTime()
    ? 'expired'
    : coupon.status;
}

/**
 * The status filter both coupon lists take (`filter={"status":"pending"}`), as alternatives of a
 * TypeORM `where` (any one matches) for the caller to add its own conditions to.
 */
export function statusFilter(filter: Record<string, unknown>, now = new Date()): FindOptionsWhere<Coupon>[] {
  if (typeof filter.status !== 'string') return [{}];
  switch (filter.status as CouponStatus) {
    case 'live':
      return [
        { status: 'live', expiryDate: MoreThan(now) },
        { status: 'live', expiryDate: IsNull() },
      ];
    case 'expired':
      return [{ status: 'expired' }, { status: 'live', expiryDate: LessThanOrEqual(now) }];
    default:
      return [{ status: filter.status as CouponStatus }];
  }
}

/**
 * Held FOR SHARE by every transaction that makes a coupon live or ends it otherwise (approval,
 * withdrawal), before it touches a coupon's seat: the sweep locks the row for itself, so it starts
 * once those have committed and sees them, and they wait for it to finish.
 */
export const HOLD_EXPIRY_SWEEP = 'SELECT 1 FROM coupon_expiry_sweep FOR SHARE';

/** Whether the merchant has any coupon, in any state (a store claim needs an account without one). */
export async function merchantHasCoupons(
  reader: { query(sql: string, parameters?: unknown[]): Promise<unknown[]> },
  merchantId: number,
): Promise<boolean> {
  return (
    (await reader.query('SELECT 1 FROM coupons WHERE merchant_id = $1 LIMIT 1', [merchantId])).length > 0
  );
}
