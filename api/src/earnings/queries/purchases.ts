/** SQL of recorded purchases and their rewards. */

/**
 * The coupon ($1) of the merchant ($2) was live at the purchase time ($3): approved before it,
 * not ended (withdrawn or expired) before it, and not past its expiry date (if it has one).
 */
export const COUPON_LIVE_AT = `
  SELECT 1 FROM coupons
  WHERE id = $1 AND merchant_id = $2 AND approved_at IS NOT NULL AND approved_at <= $3
    AND (ended_at IS NULL OR ended_at > $3) AND (expiry_date IS NULL OR expiry_date > $3)`;

/**
 * A confirmed (or paid) purchase that earns its shopper's referrer the bonus: at least $2 paise,
 * and the referrer is not the merchant of the purchase's coupon (a merchant cannot pay itself a
 * bonus for a shopper it referred through its own postbacks). The house code owns no account.
 */
export const REWARDABLE_PURCHASE = `
  SELECT e.user_id AS "userId", c.owner_type AS "referrerType", c.owner_id AS "referrerId"
  FROM earnings e
  JOIN users u ON u.id = e.user_id
  JOIN referral_codes c ON c.code = u.referred_by
  WHERE e.id = $1 AND e.kind = 'cashback' AND e.state IN ('confirmed', 'paid')
    AND e.purchase_amount_paise >= $2
    AND NOT (c.owner_type = 'merchant' AND c.owner_id = e.merchant_id)`;
