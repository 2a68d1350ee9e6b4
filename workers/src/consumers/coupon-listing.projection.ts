import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CouponRevealed, LISTING_EVENTS } from '../../../api/src/coupons/events/coupon-events.js';
import { LISTINGS_CHANNEL } from '../../../api/src/coupons/queries/listing-cache.js';
import type { PublishedEvent } from '../../../api/src/events/domain-event.js';
import { MERCHANT_VISIBILITY_EVENTS } from '../../../api/src/identity/events/account-events.js';
import type { EventConsumer } from '../events/event-consumer.js';

/**
 * Popularity is a sum of e^(t/τ) over the reveal times t, kept as its logarithm: a click a week
 * newer weighs e times more, so recent clicks lead without any periodic recomputation.
 */
const POPULARITY_EPOCH = Date.UTC(2026, 0, 1);
const POPULARITY_TIME_CONSTANT_MS = 7 * 24 * 3600_000;
export const clickWeight = (at: string) => (Date.parse(at) - POPULARITY_EPOCH) / POPULARITY_TIME_CONSTANT_MS;

/**
 * Keeps `coupon_listings` (what the public lists show) and `coupon_clicks`. On any change of a
 * coupon it re-reads the coupon and shows it if live or hides it otherwise, so the order in which
 * events of different coupons arrive does not matter.
 */
@Injectable()
export class CouponListingProjection implements EventConsumer {
  readonly name = 'coupon-listings';
  readonly handles = [...LISTING_EVENTS, ...MERCHANT_VISIBILITY_EVENTS];

  async handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    if ((MERCHANT_VISIBILITY_EVENTS as readonly string[]).includes(event.type)) {
      // A merchant confirmed its email or an admin hid or showed its store: each live coupon of
      // it is shown or hidden again, one coupon at a time as any other coupon event is.
      const coupons: Array<{ id: number }> = await manager.query(
        "SELECT id FROM coupons WHERE merchant_id = $1 AND status = 'live' ORDER BY id",
        [Number(event.aggregateId)],
      );
      for (const { id } of coupons) await this.project(manager, id);
      return;
    }
    const couponId = Number(event.aggregateId);
    // One coupon's listing row and click counts change one transaction at a time: a click applied
    // alongside its coupon's approval then always finds the row, or the row finds the click.
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`coupon-listing:${couponId}`]);
    // Clicks reorder the popular lists; the API's ready lists pick that up within a minute.
    if (event.type === CouponRevealed.type) return this.countClick(manager, couponId, event.occurredAt);
    await this.project(manager, couponId);
  }

  /**
   * Shows the coupon while it is live and its merchant may be public (email confirmed, store not
   * hidden by an admin); removes it otherwise.
   */
  private async project(manager: EntityManager, couponId: number): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`coupon-listing:${couponId}`]);
    // Delivered when this transaction commits: every API process drops its ready lists then.
    await manager.query(`SELECT pg_notify('${LISTINGS_CHANNEL}', '')`);
    const shown = await manager.query(
      `INSERT INTO coupon_listings (coupon_id, merchant_id, merchant_name, title, description, merchant_url, image_id,
                                    percentage, discount_value, expires_at, category_ids, paid_slot, approved_at, search,
                                    clicks, popularity)
       SELECT c.id, c.merchant_id, m.merchant_name, c.title, c.description, coalesce(c.merchant_url, m.merchant_url),
              c.ad_image_id, c.percentage, c.discount_value, c.expiry_date,
              coalesce((SELECT array_agg(category_id ORDER BY category_id) FROM coupon_categories WHERE coupon_id = c.id), '{}'),
              s.kind = 'paid', c.approved_at,
              to_tsvector('simple', c.title || ' ' || c.description || ' ' || m.merchant_name),
              coalesce(k.clicks, 0), k.popularity
       FROM coupons c JOIN merchants m ON m.id = c.merchant_id JOIN slots s ON s.id = c.slot_id
            LEFT JOIN coupon_clicks k ON k.coupon_id = c.id
       WHERE c.id = $1 AND c.status = 'live' AND m.is_email_confirmed AND NOT m.store_hidden
       ON CONFLICT (coupon_id) DO UPDATE SET
         merchant_name = EXCLUDED.merchant_name, title = EXCLUDED.title, description = EXCLUDED.description,
         merchant_url = EXCLUDED.merchant_url, image_id = EXCLUDED.image_id, percentage = EXCLUDED.percentage,
         discount_value = EXCLUDED.discount_value, expires_at = EXCLUDED.expires_at,
         category_ids = EXCLUDED.category_ids, paid_slot = EXCLUDED.paid_slot, approved_at = EXCLUDED.approved_at,
         search = EXCLUDED.search, clicks = EXCLUDED.clicks, popularity = EXCLUDED.popularity
       RETURNING coupon_id`,
      [couponId],
    );
    if (shown.length === 0)
      await manager.query('DELETE FROM coupon_listings WHERE coupon_id = $1', [couponId]);
  }

  /** Counts the click with the coupon's other clicks, then shows the sums on its listing row, if any. */
  private async countClick(manager: EntityManager, couponId: number, at: string): Promise<void> {
    await manager.query(
      `WITH counted AS (
         INSERT INTO coupon_clicks AS k (coupon_id, clicks, last_clicked_at, popularity) VALUES ($1, 1, $2, $3)
         ON CONFLICT (coupon_id) DO UPDATE SET clicks = k.clicks + 1,
           last_clicked_at = greatest(k.last_clicked_at, EXCLUDED.last_clicked_at),
           popularity = CASE WHEN k.popularity IS NULL THEN EXCLUDED.popularity
                             ELSE greatest(k.popularity, EXCLUDED.popularity)
                                  + ln(1 + exp(-abs(k.popularity - EXCLUDED.popularity))) END
         RETURNING coupon_id, clicks, popularity)
       UPDATE coupon_listings l SET clicks = counted.clicks, popularity = counted.popularity
       FROM counted WHERE l.coupon_id = counted.coupon_id`,
      [couponId, at, clickWeight(at)],
    );
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query('TRUNCATE coupon_listings, coupon_clicks');
  }
}
