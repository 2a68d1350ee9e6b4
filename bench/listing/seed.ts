/**
 * Data of the listing benchmark, written with set-based SQL (generate_series) straight into the
 * product's tables: merchants, the demo slots, live coupons with their categories, and the
 * `coupon_listings` rows the listing projection would have written for them.
 */

import { addSearchWordsSql, categoryNamesSql, searchVectorSql } from '@offers/api/read-models';
import type pg from 'pg';

export const MERCHANTS = 100;

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

/** 100 merchants and the three slots of the demo data (one free, two paid). */
export async function seedMerchantsAndSlots(client: pg.Client): Promise<void> {
  await seedMerchants(client);
  await client.query(
    `INSERT INTO slots (name, kind, price_paise, capacity) VALUES
       ('Free listing', 'free', NULL, 500),
       ('Featured', 'paid', 49900, 20),
       ('Home page hero', 'paid', 199900, 4)`,
  );
}

/** 100 confirmed merchants, `Brand <n>` at `/store/brand-<n>`. */
export async function seedMerchants(client: pg.Client): Promise<void> {
  await client.query(
    `INSERT INTO merchants (merchant_name, brand_name, industry, category, address, email, mobile, merchant_url,
                            user_name, password_hash, referral_code, referred_by_code, referred_by_type,
                            is_email_confirmed, slug)
     SELECT 'Merchant ' || g, 'Brand ' || g, 'Retail', 'Shopping', g || ' Market Street',
            'merchant' || g || '@bench.localhost', '9' || lpad(g::text, 9, '0'),
            'https://merchant' || g || '.bench.localhost', 'merchant_' || g, 'not-a-password-hash',
            'BENCH' || lpad(g::text, 5, '0'), '', 'merchant', true, 'brand-' || g
     FROM generate_series(1, $1) g`,
    [MERCHANTS],
  );
}

/**
 * `count` live coupons, of which `due` (spread evenly over the ids) have an expiry in the past day
 * and the others an expiry 1 to 91 days ahead. Approved into their requested slot in the last 30
 * days: one in ten in a paid slot. Merchants are taken in turn.
 */
export async function seedCoupons(client: pg.Client, count: number, due = 0): Promise<void> {
  // Every `step`-th coupon is due, up to `due` of them.
  const step = due > 0 ? Math.floor(count / due) : 0;
  await client.query(
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
     ) s CROSS JOIN (SELECT array_agg(id ORDER BY id) AS ids FROM merchants) m`,
    [count, step, due],
  );
}

/**
 * Categories of every coupon (a random subset of the eight, never empty), then one listing row
 * per live coupon with the projection's columns: popularity and clicks random, the search vector
 * and text from the same expressions as the projection's.
 */
export async function seedListings(client: pg.Client): Promise<void> {
  await client.query(
    `INSERT INTO coupon_categories (coupon_id, category_id)
     SELECT c.id, k.id FROM coupons c CROSS JOIN categories k
     WHERE k.position = 1 + c.id % 8 OR random() < 0.2`,
  );
  await client.query(
    `INSERT INTO coupon_listings (coupon_id, merchant_id, merchant_name, merchant_slug, title, description,
                                  merchant_url, image_id, percentage, discount_value, expires_at, category_ids,
                                  paid_slot, approved_at, verified_at, clicks, popularity, search)
     SELECT c.id, c.merchant_id, m.merchant_name, m.slug, c.title, c.description,
            coalesce(c.merchant_url, m.merchant_url), c.ad_image_id, c.percentage, c.discount_value, c.expiry_date,
            coalesce((SELECT array_agg(category_id ORDER BY category_id) FROM coupon_categories WHERE coupon_id = c.id), '{}'),
            s.kind = 'paid', c.approved_at, c.approved_at, floor(random() * 500)::int, random() * 10,
            ${searchVectorSql('c.title', 'm.merchant_name', 'c.description', categoryNamesSql('c.id'))}
     FROM coupons c JOIN merchants m ON m.id = c.merchant_id JOIN slots s ON s.id = c.slot_id
     WHERE c.status = 'live'`,
  );
  await client.query(addSearchWordsSql('true'));
}

/** Statistics and visibility as a table that has been in use would have them. */
export async function vacuumAnalyze(client: pg.Client, tables: string[]): Promise<void> {
  await client.query(`VACUUM (ANALYZE) ${tables.join(', ')}`);
}

/**
 * The store page of `brand-1` in the `store_pages` read model, shaped as the projection keeps it
 * (the page as the JSON text it is sent as) with the store's first 24 listed coupons.
 */
export async function seedStorePage(client: pg.Client): Promise<string> {
  await client.query(
    `INSERT INTO store_pages (merchant_id, slug, document)
     SELECT m.id, m.slug, json_build_object(
              'merchantId', m.id, 'storeName', m.brand_name, 'slug', m.slug, 'tagline', 'Everyday offers',
              'websiteUrl', m.merchant_url, 'categories', '[]'::json, 'products', '[]'::json,
              'coupons', (SELECT coalesce(json_agg(row_to_json(l)), '[]'::json)
                          FROM (SELECT * FROM coupon_listings WHERE merchant_id = m.id ORDER BY coupon_id LIMIT 24) l))
     FROM merchants m WHERE m.slug = 'brand-1'`,
  );
  return 'brand-1';
}
