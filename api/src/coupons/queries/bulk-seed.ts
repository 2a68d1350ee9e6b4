import type { EntityManager } from 'typeorm';
import { COUPON_STATUS_SQL } from './coupon-status.js';
import { addSearchWordsSql, categoryNamesSql, searchVectorSql } from './search.js';

/**
 * Slots, coupons and listing rows written set-based (generate_series) for the benchmarks, which
 * need up to a million coupons in place before they measure: a command per coupon would take
 * hours. The rows are those the commands and the listing projection would have left.
 */

type Writer = Pick<EntityManager, 'query'>;

/** A slot to write: a free one has no price. */
export interface SlotInBulk {
  name: string;
  kind: 'free' | 'paid';
  pricePaise?: number | null;
  capacity: number;
}

/** Writes the slots in the order given; answers their ids in that order. */
export async function seedSlotsInBulk(manager: Writer, slots: readonly SlotInBulk[]): Promise<number[]> {
  const rows: Array<{ id: number }> = await manager.query(
    `INSERT INTO slots (name, kind, price_paise, capacity)
     SELECT name, kind, price_paise, capacity
     FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[]) WITH ORDINALITY AS s(name, kind, price_paise, capacity, n)
     ORDER BY n
     RETURNING id`,
    [
      slots.map((slot) => slot.name),
      slots.map((slot) => slot.kind),
      slots.map((slot) => slot.pricePaise ?? null),
      slots.map((slot) => slot.capacity),
    ],
  );
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/** Words a generated coupon's title is made of. */
const ADJECTIVES = [
  'flat',
  'mega',
  'super',
  'weekend',
  'festive',
  'flash',
  'daily',
  'exclusive',
  'summer',
  'first',
];
const KINDS = ['deal', 'sale', 'saving', 'offer', 'discount', 'cashback'];
const PRODUCTS = [
  'shoes',
  'phones',
  'groceries',
  'books',
  'travel',
  'dining',
  'fashion',
  'electronics',
  'beauty',
  'toys',
  'furniture',
  'fitness',
];

/** A random element of a text array, as SQL (evaluated per row). */
const pick = (words: string[]) =>
  `(ARRAY[${words.map((word) => `'${word}'`).join(', ')}])[1 + floor(random() * ${words.length})::int]`;

/**
 * `count` live coupons of the stores `merchantIds` (taken in turn, in id order), of which `due`
 * (spread evenly over the ids) have an expiry in the past day and the others an expiry 1 to 91 days
 * ahead. Approved into their requested slot in the last 30 days: one in fifty in the slot named
 * 'Home page hero', one in ten in 'Featured', the others in 'Free listing' (the demo's slots).
 */
export async function seedCouponsInBulk(
  manager: Writer,
  coupons: { count: number; due?: number; merchantIds: readonly number[] },
): Promise<void> {
  const { count, due = 0 } = coupons;
  // Every `step`-th coupon is due, up to `due` of them.
  const step = due > 0 ? Math.floor(count / due) : 0;
  await manager.query(
    `INSERT INTO coupons (merchant_id, coupon_name, coupon_code, title, description, terms_and_conditions,
                          percentage, discount_value, expiry_date, requested_slot_id, slot_id, status,
                          submitted_at, approved_at, updated_at)
     SELECT m.ids[1 + s.g % cardinality(m.ids)], 'Coupon ' || s.g, 'BENCH' || s.g,
            initcap(s.adjective) || ' ' || s.kind || ' on ' || s.product || ' #' || s.g,
            'Get ' || s.percentage || '% off ' || s.product || ', up to ' || s.discount_value ||
              ' rupees, on orders placed online or in store.',
            'One use per customer. Not valid with other offers.',
            s.percentage, s.discount_value,
            CASE WHEN s.due THEN now() - random() * interval '1 day'
                 ELSE now() + interval '1 day' + random() * interval '90 days' END,
            s.slot_id, s.slot_id, 'live', s.approved_at - interval '2 hours', s.approved_at, s.approved_at
     FROM (
       SELECT g, $2::int > 0 AND g % $2::int = 0 AND g / $2::int <= $3::int AS due,
              ${pick(ADJECTIVES)} AS adjective, ${pick(KINDS)} AS kind, ${pick(PRODUCTS)} AS product,
              1 + floor(random() * 90)::int AS percentage, 50 + floor(random() * 4950)::int AS discount_value,
              now() - random() * interval '30 days' AS approved_at,
              CASE WHEN g % 50 = 0 THEN (SELECT id FROM slots WHERE name = 'Home page hero')
                   WHEN g % 10 = 0 THEN (SELECT id FROM slots WHERE name = 'Featured')
                   ELSE (SELECT id FROM slots WHERE name = 'Free listing') END AS slot_id
       FROM generate_series(1, $1::int) g
     ) s CROSS JOIN (SELECT $4::int[] AS ids) m`,
    [count, step, due, [...coupons.merchantIds].sort((a, b) => a - b)],
  );
}

/**
 * `count` coupons of the merchant waiting for review, asking for the slot: `Bench <n>`, code
 * `B<n>`, 10% off up to 100, ending in 30 days. Answers their ids in order.
 */
export async function seedPendingCouponsInBulk(
  manager: Writer,
  coupons: { merchantId: number; slotId: number; count: number },
): Promise<number[]> {
  const rows: Array<{ id: number }> = await manager.query(
    `INSERT INTO coupons (merchant_id, coupon_name, coupon_code, title, description, terms_and_conditions,
                          percentage, discount_value, expiry_date, requested_slot_id)
     SELECT $1, 'Bench ' || n, 'B' || n, 'Bench coupon ' || n, 'A coupon of the slot benchmark.',
            'None.', 10, 100, now() + interval '30 days', $2
     FROM generate_series(1, $3) n RETURNING id`,
    [coupons.merchantId, coupons.slotId, coupons.count],
  );
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/** A store as the listing rows show it (its owner answers it). */
export interface StoreInBulk {
  id: number;
  /** The merchant's name, which the listing rows carry. */
  merchantName: string;
  slug: string | null;
  siteUrl: string;
}

/**
 * Categories of every coupon (a random subset of the eight, never empty), then one listing row per
 * live coupon with the projection's columns: popularity and clicks random, the search vector and
 * text from the same expressions as the projection's, and the words of the titles for typos.
 * `stores` are the coupons' stores.
 */
export async function seedListingsInBulk(manager: Writer, stores: readonly StoreInBulk[]): Promise<void> {
  await manager.query(
    `INSERT INTO coupon_categories (coupon_id, category_id)
     SELECT c.id, k.id FROM coupons c CROSS JOIN categories k
     WHERE k.position = 1 + c.id % 8 OR random() < 0.2`,
  );
  await manager.query(
    `INSERT INTO coupon_listings (coupon_id, merchant_id, merchant_name, merchant_slug, title, description,
                                  merchant_url, image_id, percentage, discount_value, expires_at, category_ids,
                                  paid_slot, approved_at, verified_at, clicks, popularity, search)
     SELECT c.id, c.merchant_id, m.merchant_name, m.slug, c.title, c.description,
            coalesce(c.merchant_url, m.merchant_url), c.ad_image_id, c.percentage, c.discount_value, c.expiry_date,
            coalesce((SELECT array_agg(category_id ORDER BY category_id) FROM coupon_categories WHERE coupon_id = c.id), '{}'),
            s.kind = 'paid', c.approved_at, c.approved_at, floor(random() * 500)::int, random() * 10,
            ${searchVectorSql('c.title', 'm.merchant_name', 'c.description', categoryNamesSql('c.id'))}
     FROM coupons c
     JOIN unnest($1::int[], $2::text[], $3::text[], $4::text[]) AS m(id, merchant_name, slug, merchant_url)
       ON m.id = c.merchant_id
     JOIN slots s ON s.id = c.slot_id
     WHERE c.status = 'live'`,
    [
      stores.map((store) => store.id),
      stores.map((store) => store.merchantName),
      stores.map((store) => store.slug),
      stores.map((store) => store.siteUrl),
    ],
  );
  await manager.query(addSearchWordsSql('true'));
}

/**
 * The store's first `limit` listing rows by coupon id, whole, as the JSON text of an array: a store
 * page's coupons as the listing benchmark serves them.
 */
export async function listingRowsOfStore(
  manager: Writer,
  merchantId: number,
  limit: number,
): Promise<string> {
  const [row]: Array<{ rows: string }> = await manager.query(
    `SELECT coalesce(json_agg(row_to_json(l)), '[]'::json)::text AS rows
     FROM (SELECT * FROM coupon_listings WHERE merchant_id = $1 ORDER BY coupon_id LIMIT $2) l`,
    [merchantId, limit],
  );
  return row!.rows;
}

/** Removes every coupon and listing row (and what hangs on them), ids starting over. */
export async function emptyCouponsInBulk(manager: Writer): Promise<void> {
  await manager.query('TRUNCATE coupon_listings, coupons RESTART IDENTITY CASCADE');
}

/** Takes the expiry sweep back to its start, so that its next run announces every due coupon again. */
export async function rewindExpirySweep(manager: Writer): Promise<void> {
  await manager.query("UPDATE coupon_expiry_sweep SET through_expiry = '-infinity', through_id = 0");
}

/** Coupons the status says are expired, and due coupons the sweep has not passed yet. */
export async function expirySweepCounts(manager: Writer): Promise<{ expired: number; dueLeft: number }> {
  const [row] = await manager.query(
    `SELECT (SELECT count(*)::int FROM coupons c WHERE ${COUPON_STATUS_SQL('c')} = 'expired') AS expired,
            (SELECT count(*)::int FROM coupons c, coupon_expiry_sweep w
             WHERE c.status = 'live' AND c.expiry_date <= now()
               AND (c.expiry_date, c.id) > (w.through_expiry, w.through_id)) AS "dueLeft"`,
  );
  return row;
}

/** How many coupons are live in the slot. */
export async function liveCouponsInSlot(manager: Writer, slotId: number): Promise<number> {
  const [row] = await manager.query(
    "SELECT count(*)::int AS live FROM coupons WHERE slot_id = $1 AND status = 'live'",
    [slotId],
  );
  return row.live;
}
