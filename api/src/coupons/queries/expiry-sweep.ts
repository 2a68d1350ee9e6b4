/**
 * SQL of the expiry sweep (see migration ExpiryByDate1764830000000). Timestamps travel as text in
 * the session's own format, so the mark keeps PostgreSQL's microseconds (a JavaScript Date would
 * round them to milliseconds and could pass over, or repeat, a coupon).
 */

/** Locks the sweep's row for this sweep (waiting for approvals and withdrawals holding it). */
export const LOCK_EXPIRY_SWEEP =
  'SELECT through_expiry::text AS "throughExpiry", through_id AS "throughId" FROM coupon_expiry_sweep FOR UPDATE';

/**
 * The next `$3` live coupons past their expiry date after the mark ($1, $2), in expiry order.
 * Read from the index of live coupons' expiry alone (it holds the id and the merchant), so the
 * cost follows the coupons due, wherever their rows lie.
 */
export const DUE_COUPONS = `
  SELECT id, merchant_id AS "merchantId", expiry_date::text AS "expiryDate" FROM coupons
  WHERE status = 'live' AND (expiry_date, id) > ($1::timestamptz, $2::int) AND expiry_date <= now()
  ORDER BY expiry_date, id LIMIT $3`;

/** Moves the mark to the last coupon announced. */
export const MARK_EXPIRY_SWEEP =
  'UPDATE coupon_expiry_sweep SET through_expiry = $1::timestamptz, through_id = $2';
