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

/**
 * Which coupons of a lot, about to be added in this order, would repeat another (as
 * `repeatsAnotherCoupon` says of one just added): a coupon of the store already there, or one
 * earlier in the lot. Answers their positions. The caller holds the stores' locks (`lockStores`).
 */
export async function repeatingDrafts(
  manager: EntityManager,
  drafts: ReadonlyArray<{ merchantId: number; code: string | null; title: string }>,
): Promise<Set<number>> {
  if (drafts.length === 0) return new Set();
  // A code is looked up by the store's codes (coupons_merchant_code); a deal's title among the
  // store's coupons read by the store's index alone (OFFSET 0 keeps the status out of that scan:
  // joined with the status index, each deal of the lot read every live coupon again). The lot's
  // own repeats are ranked rather than compared pair by pair.
  const rows: Array<{ n: number }> = await manager.query(
    `WITH item AS (
       SELECT n::int - 1 AS n, merchant_id, code, title,
              CASE WHEN code IS NOT NULL THEN 'code:' || lower(code) ELSE 'deal:' || ${NORMALISED('title')} END AS repeats
       FROM unnest($1::int[], $2::text[], $3::text[]) WITH ORDINALITY AS i (merchant_id, code, title, n)),
     ranked AS (SELECT *, row_number() OVER (PARTITION BY merchant_id, repeats ORDER BY n) AS nth FROM item)
     SELECT i.n FROM ranked i
     WHERE i.nth > 1
       OR (i.code IS NOT NULL AND EXISTS (
             SELECT 1 FROM coupons c
             WHERE c.merchant_id = i.merchant_id AND lower(c.coupon_code) = lower(i.code) AND c.coupon_code IS NOT NULL
               AND c.status IN ('live', 'pending') AND (c.expiry_date IS NULL OR c.expiry_date > now())))
       OR (i.code IS NULL AND EXISTS (
             SELECT 1 FROM (SELECT * FROM coupons WHERE merchant_id = i.merchant_id OFFSET 0) c
             WHERE c.coupon_code IS NULL AND c.status IN ('live', 'pending')
               AND (c.expiry_date IS NULL OR c.expiry_date > now())
               AND ${NORMALISED('c.title')} = ${NORMALISED('i.title')}))`,
    [
      drafts.map((draft) => draft.merchantId),
      drafts.map((draft) => draft.code),
      drafts.map((draft) => draft.title),
    ],
  );
  return new Set(rows.map((row) => row.n));
}

/** Takes the duplicate lock of each store, in one order whoever asks, so lots never deadlock on them. */
export async function lockStores(manager: EntityManager, merchantIds: readonly number[]): Promise<void> {
  await manager.query(
    `SELECT pg_advisory_xact_lock(hashtext('coupon-duplicates'), m)
     FROM (SELECT DISTINCT unnest($1::int[]) AS m ORDER BY 1) stores`,
    [merchantIds],
  );
}

/** The store's coupons, live or waiting for review and not past their expiry, with each of these codes (without case). */
export async function couponsWithCodes(
  reader: Pick<EntityManager, 'query'>,
  pairs: ReadonlyArray<{ merchantId: number; code: string }>,
): Promise<Array<{ merchantId: number; code: string; id: number }>> {
  if (pairs.length === 0) return [];
  return reader.query(
    `SELECT p.merchant_id AS "merchantId", p.code, c.id
     FROM (SELECT DISTINCT merchant_id, lower(code) AS code FROM unnest($1::int[], $2::text[]) AS p (merchant_id, code)) p
     JOIN coupons c ON c.merchant_id = p.merchant_id AND lower(c.coupon_code) = p.code AND c.coupon_code IS NOT NULL
     WHERE c.status IN ('live', 'pending') AND (c.expiry_date IS NULL OR c.expiry_date > now())`,
    [pairs.map((pair) => pair.merchantId), pairs.map((pair) => pair.code)],
  );
}
