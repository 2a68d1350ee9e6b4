import type { EntityManager } from 'typeorm';
import { MARKET_TIME_ZONE } from '../rules/coupons.js';
import { LIVE_COUPON_SQL } from './queries/coupon-status.js';
import {
  COUPON_TEXTS_SQL,
  TRANSLATED_DESCRIPTIONS_SQL,
  TRANSLATED_TITLES_SQL,
} from './queries/coupon-texts.js';
import { addSearchWordsSql, categoryNamesSql, searchVectorSql } from './queries/search.js';

/**
 * The writes of `coupon_listings` (what the public lists show), `coupon_clicks` and `search_words`,
 * which the workers' listing projection makes as events arrive.
 */

/**
 * A store as a listing shows it beside its coupons. Stores belong to other features: the caller
 * reads them from their owners and passes only those shoppers may see.
 */
export interface ListedStore {
  id: number;
  name: string;
  slug: string | null;
  logoId: string | null;
  siteUrl: string;
}

/**
 * Popularity is a sum of e^(t/τ) over the reveal times t, kept as its logarithm: a click a week
 * newer weighs e times more, so recent clicks lead without any periodic recomputation.
 */
const POPULARITY_EPOCH = Date.UTC(2026, 0, 1);
const POPULARITY_TIME_CONSTANT_MS = 7 * 24 * 3600_000;
export const clickWeight = (at: string) => (Date.parse(at) - POPULARITY_EPOCH) / POPULARITY_TIME_CONSTANT_MS;

/** A coupon's votes (`coupon`, the SQL of its id), counted from the votes kept: how many, how many said it worked, the last that did. */
const VOTE_COUNTS = (
  coupon: string,
) => `SELECT count(*)::int AS votes, count(*) FILTER (WHERE worked)::int AS worked_votes,
         max(voted_at) FILTER (WHERE worked) AS last_worked_at
  FROM coupon_votes WHERE coupon_id = ${coupon}`;

/**
 * Shows each coupon while it is live and before its expiry date, and its store is among `stores`
 * (those shoppers may see); removes it otherwise. An open-ended coupon ends at 'infinity' here;
 * whether it has a code is kept, never the code. Its texts in other languages go on the row as a
 * document and into the search vector beside the English ones. Returns the ids shown.
 */
export async function showCouponListings(
  manager: EntityManager,
  couponIds: readonly number[],
  stores: readonly ListedStore[],
): Promise<number[]> {
  if (couponIds.length === 0) return [];
  // Once each: a row may change only once in one INSERT ... ON CONFLICT.
  const ids = [...new Set(couponIds)];
  const shown: Array<{ coupon_id: number }> = await manager.query(
    `INSERT INTO coupon_listings (coupon_id, merchant_id, merchant_name, merchant_slug, merchant_logo_id, title,
                                  description, terms, merchant_url, image_id, percentage, discount_value, expires_at,
                                  category_ids, paid_slot, approved_at, search, clicks, popularity,
                                  today, clicks_today,
                                  votes, worked_votes, last_worked_at, verified_at, has_code, exclusive, texts)
     SELECT c.id, c.merchant_id, m.name, m.slug, m.logo_id, c.title, c.description,
            c.terms_and_conditions, coalesce(c.merchant_url, m.merchant_url), c.ad_image_id, c.percentage, c.discount_value,
            coalesce(c.expiry_date, 'infinity'),
            coalesce((SELECT array_agg(category_id ORDER BY category_id) FROM coupon_categories WHERE coupon_id = c.id), '{}'),
            sl.kind = 'paid', c.approved_at,
            ${searchVectorSql(
              `c.title || ' ' || ${TRANSLATED_TITLES_SQL('x.texts')}`,
              'm.name',
              `c.description || ' ' || ${TRANSLATED_DESCRIPTIONS_SQL('x.texts')}`,
              categoryNamesSql('c.id'),
            )},
            coalesce(k.clicks, 0), k.popularity, k.today, coalesce(k.clicks_today, 0),
            v.votes, v.worked_votes, v.last_worked_at, greatest(c.approved_at, v.last_worked_at),
            c.coupon_code IS NOT NULL, c.exclusive, x.texts
     FROM coupons c
          JOIN unnest($2::int[], $3::text[], $4::text[], $5::uuid[], $6::text[])
               AS m(id, name, slug, logo_id, merchant_url) ON m.id = c.merchant_id
          JOIN slots sl ON sl.id = c.slot_id
          LEFT JOIN coupon_clicks k ON k.coupon_id = c.id CROSS JOIN LATERAL (${VOTE_COUNTS('c.id')}) v
          CROSS JOIN LATERAL (SELECT ${COUPON_TEXTS_SQL('c.id')} AS texts) x
     WHERE c.id = ANY($1::int[]) AND ${LIVE_COUPON_SQL('c')}
     ON CONFLICT (coupon_id) DO UPDATE SET
       merchant_name = EXCLUDED.merchant_name, merchant_slug = EXCLUDED.merchant_slug,
       merchant_logo_id = EXCLUDED.merchant_logo_id, title = EXCLUDED.title, description = EXCLUDED.description,
       terms = EXCLUDED.terms,
       merchant_url = EXCLUDED.merchant_url, image_id = EXCLUDED.image_id, percentage = EXCLUDED.percentage,
       discount_value = EXCLUDED.discount_value, expires_at = EXCLUDED.expires_at,
       category_ids = EXCLUDED.category_ids, paid_slot = EXCLUDED.paid_slot, approved_at = EXCLUDED.approved_at,
       search = EXCLUDED.search, clicks = EXCLUDED.clicks, popularity = EXCLUDED.popularity,
       today = EXCLUDED.today, clicks_today = EXCLUDED.clicks_today, votes = EXCLUDED.votes,
       worked_votes = EXCLUDED.worked_votes, last_worked_at = EXCLUDED.last_worked_at,
       verified_at = EXCLUDED.verified_at, has_code = EXCLUDED.has_code, exclusive = EXCLUDED.exclusive,
       texts = EXCLUDED.texts
     RETURNING coupon_id`,
    [
      ids,
      stores.map((store) => store.id),
      stores.map((store) => store.name),
      stores.map((store) => store.slug),
      stores.map((store) => store.logoId),
      stores.map((store) => store.siteUrl),
    ],
  );
  const shownIds = shown.map((row) => row.coupon_id);
  if (shownIds.length < ids.length)
    await manager.query(
      'DELETE FROM coupon_listings WHERE coupon_id = ANY($1::int[]) AND NOT coupon_id = ANY($2::int[])',
      [ids, shownIds],
    );
  if (shownIds.length > 0)
    await manager.query(
      addSearchWordsSql(
        'coupon_id = ANY($1::int[])',
        `title || ' ' || merchant_name || ' ' || ${TRANSLATED_TITLES_SQL('texts')}`,
      ),
      [shownIds],
    );
  return shownIds;
}

/**
 * Counts the click with the coupon's other clicks (and with today's, India's day of the click),
 * then shows the sums on its listing row, if any.
 */
export async function countCouponClick(manager: EntityManager, couponId: number, at: string): Promise<void> {
  await manager.query(
    `WITH counted AS (
       INSERT INTO coupon_clicks AS k (coupon_id, clicks, last_clicked_at, popularity, today, clicks_today)
       VALUES ($1, 1, $2, $3, ($2::timestamptz AT TIME ZONE '${MARKET_TIME_ZONE}')::date, 1)
       ON CONFLICT (coupon_id) DO UPDATE SET clicks = k.clicks + 1,
         last_clicked_at = greatest(k.last_clicked_at, EXCLUDED.last_clicked_at),
         popularity = CASE WHEN k.popularity IS NULL THEN EXCLUDED.popularity
                           ELSE greatest(k.popularity, EXCLUDED.popularity)
                                + ln(1 + exp(-abs(k.popularity - EXCLUDED.popularity))) END,
         -- A click of a day already past (a late delivery) no longer counts for today.
         clicks_today = CASE WHEN k.today = EXCLUDED.today THEN k.clicks_today + 1
                             WHEN k.today > EXCLUDED.today THEN k.clicks_today ELSE 1 END,
         today = greatest(k.today, EXCLUDED.today)
       RETURNING coupon_id, clicks, popularity, today, clicks_today)
     UPDATE coupon_listings l SET clicks = counted.clicks, popularity = counted.popularity,
       today = counted.today, clicks_today = counted.clicks_today
     FROM counted WHERE l.coupon_id = counted.coupon_id`,
    [couponId, at, clickWeight(at)],
  );
}

/** Counts the coupon's votes again from the votes kept (a redelivered event changes nothing). */
export async function recountCouponVotes(manager: EntityManager, couponId: number): Promise<void> {
  await manager.query(
    `UPDATE coupon_listings l SET votes = v.votes, worked_votes = v.worked_votes, last_worked_at = v.last_worked_at,
       verified_at = greatest(l.approved_at, v.last_worked_at)
     FROM (${VOTE_COUNTS('$1')}) v WHERE l.coupon_id = $1`,
    [couponId],
  );
}

/** Empties the listings, their click counts and the search vocabulary, for a replay of the log. */
export async function emptyCouponListings(manager: EntityManager): Promise<void> {
  await manager.query('TRUNCATE coupon_listings, coupon_clicks, search_words');
}
