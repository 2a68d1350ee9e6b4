import { Injectable } from '@nestjs/common';
import {
  CouponRevealed,
  CouponVoted,
  LISTING_EVENTS,
  LISTINGS_CHANNEL,
  MERCHANT_VISIBILITY_EVENTS,
  type PublishedEvent,
  StoreSaved,
} from '@offers/api/events';
import {
  addSearchWordsSql,
  COUPON_TEXTS_SQL,
  categoryNamesSql,
  LIVE_COUPON_SQL,
  PUBLIC_MERCHANT_SQL,
  STORE_JOIN,
  STORE_LOGO_SQL,
  STORE_NAME_SQL,
  searchVectorSql,
  TRANSLATED_DESCRIPTIONS_SQL,
  TRANSLATED_TITLES_SQL,
} from '@offers/api/read-models';
import { MARKET_TIME_ZONE } from '@offers/api/rules';
import type { EntityManager } from 'typeorm';
import type { EventConsumer } from '../events/event-consumer.js';

/** Events of a merchant that change how each of its coupons is shown. */
const MERCHANT_EVENTS = [...MERCHANT_VISIBILITY_EVENTS, StoreSaved.type] as const;

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
 * One coupon's listing row and click counts change one transaction at a time: a click applied
 * alongside its coupon's approval then always finds the row, or the row finds the click. A lot
 * locks all its coupons at once, in the order of their ids, so that lots applied in parallel never
 * wait for each other in a cycle; with the notification every API process drops its ready lists
 * on (delivered when the transaction commits) when the lot changes listings, in the same round trip.
 */
const lockCoupons = (notify: boolean) =>
  `SELECT ${notify ? `pg_notify('${LISTINGS_CHANNEL}', '')` : 'true'}
   FROM (SELECT count(pg_advisory_xact_lock(hashtext('coupon-listing:' || id)))
         FROM (SELECT DISTINCT unnest($1::int[]) AS id ORDER BY 1) ordered) locked`;

/** Events that only count on a listing (reveals, votes): they neither show nor hide it. */
const COUNTING_EVENTS: readonly string[] = [CouponRevealed.type, CouponVoted.type];

/**
 * Keeps `coupon_listings` (what the public lists show) and `coupon_clicks`. On any change of a
 * coupon it re-reads the coupon and shows it if live or hides it otherwise, so the order in which
 * events of different coupons arrive does not matter.
 */
@Injectable()
export class CouponListingProjection implements EventConsumer {
  readonly name = 'coupon-listings';
  readonly handles = [...LISTING_EVENTS, ...MERCHANT_EVENTS];

  handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    return this.handleLot([event], manager);
  }

  async handleLot(events: PublishedEvent[], manager: EntityManager): Promise<void> {
    const changes: Array<{ event: PublishedEvent; couponIds: number[] }> = [];
    for (const event of events) changes.push({ event, couponIds: await this.couponsOf(event, manager) });
    const couponIds = changes.flatMap((change) => change.couponIds);
    if (couponIds.length === 0) return;
    const showsOrHides = changes.some(
      ({ event, couponIds }) => couponIds.length > 0 && !COUNTING_EVENTS.includes(event.type),
    );
    await manager.query(lockCoupons(showsOrHides), [couponIds]);
    // Coupons shown or hidden one after another are projected together (a feed's lot is
    // thousands): a click or a vote in between is counted in its place.
    let projecting: number[] = [];
    for (const { event, couponIds } of changes) {
      if (!COUNTING_EVENTS.includes(event.type)) {
        projecting.push(...couponIds);
        continue;
      }
      await this.project(manager, projecting);
      projecting = [];
      // Clicks reorder the popular lists; the API's ready lists pick that up within a minute.
      if (event.type === CouponRevealed.type) await this.countClick(manager, couponIds[0]!, event.occurredAt);
      else await this.countVotes(manager, couponIds[0]!);
    }
    await this.project(manager, projecting);
  }

  /**
   * The coupons an event changes. A merchant confirmed its email, an admin hid or showed its store,
   * or it saved its store (name, logo): each live coupon of it is shown again. Merchant events name
   * the merchant as their aggregate; StoreSaved in its payload.
   */
  private async couponsOf(event: PublishedEvent, manager: EntityManager): Promise<number[]> {
    if (!(MERCHANT_EVENTS as readonly string[]).includes(event.type)) return [Number(event.aggregateId)];
    const merchantId = Number((event.payload as { merchantId?: number }).merchantId ?? event.aggregateId);
    const coupons: Array<{ id: number }> = await manager.query(
      `SELECT id FROM coupons c WHERE c.merchant_id = $1 AND ${LIVE_COUPON_SQL('c')} ORDER BY c.id`,
      [merchantId],
    );
    return coupons.map(({ id }) => id);
  }

  /**
   * Shows each coupon while it is live and before its expiry date, and its merchant may be public
   * (email confirmed, store not hidden by an admin); removes it otherwise. An open-ended coupon
   * ends at 'infinity' here; whether it has a code is kept, never the code. Its texts in other
   * languages go on the row as a document and into the search vector beside the English ones.
   */
  private async project(manager: EntityManager, couponIds: readonly number[]): Promise<void> {
    if (couponIds.length === 0) return;
    // Once each: a row may change only once in one INSERT ... ON CONFLICT.
    const ids = [...new Set(couponIds)];
    const shown: Array<{ coupon_id: number }> = await manager.query(
      `INSERT INTO coupon_listings (coupon_id, merchant_id, merchant_name, merchant_slug, merchant_logo_id, title,
                                    description, terms, merchant_url, image_id, percentage, discount_value, expires_at,
                                    category_ids, paid_slot, approved_at, search, clicks, popularity,
                                    today, clicks_today,
                                    votes, worked_votes, last_worked_at, verified_at, has_code, exclusive, texts)
       SELECT c.id, c.merchant_id, ${STORE_NAME_SQL}, m.slug, ${STORE_LOGO_SQL}, c.title, c.description,
              c.terms_and_conditions, coalesce(c.merchant_url, m.merchant_url), c.ad_image_id, c.percentage, c.discount_value,
              coalesce(c.expiry_date, 'infinity'),
              coalesce((SELECT array_agg(category_id ORDER BY category_id) FROM coupon_categories WHERE coupon_id = c.id), '{}'),
              sl.kind = 'paid', c.approved_at,
              ${searchVectorSql(
                `c.title || ' ' || ${TRANSLATED_TITLES_SQL('x.texts')}`,
                STORE_NAME_SQL,
                `c.description || ' ' || ${TRANSLATED_DESCRIPTIONS_SQL('x.texts')}`,
                categoryNamesSql('c.id'),
              )},
              coalesce(k.clicks, 0), k.popularity, k.today, coalesce(k.clicks_today, 0),
              v.votes, v.worked_votes, v.last_worked_at, greatest(c.approved_at, v.last_worked_at),
              c.coupon_code IS NOT NULL, c.exclusive, x.texts
       FROM coupons c JOIN merchants m ON m.id = c.merchant_id ${STORE_JOIN} JOIN slots sl ON sl.id = c.slot_id
            LEFT JOIN coupon_clicks k ON k.coupon_id = c.id CROSS JOIN LATERAL (${VOTE_COUNTS('c.id')}) v
            CROSS JOIN LATERAL (SELECT ${COUPON_TEXTS_SQL('c.id')} AS texts) x
       WHERE c.id = ANY($1::int[]) AND ${LIVE_COUPON_SQL('c')} AND ${PUBLIC_MERCHANT_SQL}
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
      [ids],
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
  }

  /**
   * Counts the click with the coupon's other clicks (and with today's, India's day of the click),
   * then shows the sums on its listing row, if any.
   */
  private async countClick(manager: EntityManager, couponId: number, at: string): Promise<void> {
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
  private async countVotes(manager: EntityManager, couponId: number): Promise<void> {
    await manager.query(
      `UPDATE coupon_listings l SET votes = v.votes, worked_votes = v.worked_votes, last_worked_at = v.last_worked_at,
         verified_at = greatest(l.approved_at, v.last_worked_at)
       FROM (${VOTE_COUNTS('$1')}) v WHERE l.coupon_id = $1`,
      [couponId],
    );
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query('TRUNCATE coupon_listings, coupon_clicks, search_words');
  }
}
