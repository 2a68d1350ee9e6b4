/** SQL of recorded purchases and their rewards, and what other features read of them. */
import type { EntityManager } from 'typeorm';

/** The shopper's ($1) referral bonus that is not cancelled (at most one), locked. */
export const LIVE_REFERRAL_BONUS = `
  SELECT id, state, source_earning_id AS "purchaseId", amount_paise AS "amountPaise", user_id AS "userId"
  FROM earnings WHERE kind = 'referral' AND referred_user_id = $1 AND state <> 'cancelled' FOR UPDATE`;

/** The bonus ($1 is its purchase) that is not cancelled, locked. */
export const BONUS_OF_PURCHASE = `
  SELECT id, state, amount_paise AS "amountPaise", user_id AS "userId"
  FROM earnings WHERE kind = 'referral' AND source_earning_id = $1 AND state <> 'cancelled' FOR UPDATE`;

/**
 * Whether an admin cancelled one of the shopper's ($1) bonuses itself (its purchase was not
 * cancelled): then no other purchase earns it.
 */
export const BONUS_WITHHELD = `
  SELECT 1 FROM earnings b JOIN earnings p ON p.id = b.source_earning_id
  WHERE b.kind = 'referral' AND b.referred_user_id = $1 AND b.state = 'cancelled' AND p.state <> 'cancelled'
  LIMIT 1`;

/**
 * The shopper's ($1) purchases that may earn the referrer's bonus: not cancelled, at least $2
 * paise, not waiting in the claims queue, and not on the referrer's own store (a merchant cannot pay itself a bonus for a shopper
 * it referred through its own postbacks: $3 the referring merchant, or null). Confirmed (or
 * paid) ones first, then the oldest.
 */
export const BONUS_PURCHASES = `
  SELECT id, state FROM earnings
  WHERE kind = 'cashback' AND user_id = $1 AND state <> 'cancelled' AND purchase_amount_paise >= $2
    AND NOT held_for_review AND ($3::int IS NULL OR merchant_id <> $3)
  ORDER BY state = 'pending', id
  LIMIT 1`;

/** Which of these clicks ($1) a store or network already reported a purchase of. */
export const TRACKED_CLICKS = `
  SELECT DISTINCT click_id AS "clickId" FROM earnings WHERE kind = 'cashback' AND click_id = ANY($1::text[])`;

/** Whether the merchant ($1) reported a purchase of this reference ($2, any case) itself. */
export const REPORTED_ORDER = `
  SELECT 1 FROM earnings
  WHERE kind = 'cashback' AND merchant_id = $1 AND lower(purchase_reference) = lower($2) LIMIT 1`;

/** Which of these clicks a store or network already reported a purchase of. */
export async function trackedClicks(
  reader: Pick<EntityManager, 'query'>,
  clickIds: readonly string[],
): Promise<Set<string>> {
  if (clickIds.length === 0) return new Set();
  const rows: Array<{ clickId: string }> = await reader.query(TRACKED_CLICKS, [clickIds]);
  return new Set(rows.map((row) => row.clickId));
}

/** The cashback of earnings, in paise, by id (for the claims that created them). */
export async function cashbackOfEarnings(
  reader: Pick<EntityManager, 'query'>,
  ids: readonly number[],
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows: Array<{ id: number; amountPaise: string }> = await reader.query(
    'SELECT id, amount_paise AS "amountPaise" FROM earnings WHERE id = ANY($1::int[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, Number(row.amountPaise)]));
}
