import { Injectable } from '@nestjs/common';
import { CouponApproved, CouponExpired, CouponWithdrawn } from '@offers/api/coupons/events/coupon-events';
import type { PublishedEvent } from '@offers/api/events/domain-event';
import { MERCHANT_VISIBILITY_EVENTS } from '@offers/api/identity/events/account-events';
import { STORE_PAGE_EVENTS, STORE_PAGES_CHANNEL } from '@offers/api/storefront/events/storefront-events';
import { buildStorePage } from '@offers/api/storefront/queries/store-page';
import type { EntityManager } from 'typeorm';
import type { EventConsumer } from '../events/event-consumer.js';

/**
 * Keeps `store_pages`: each merchant's public store page as one ready JSON document. On any
 * change of a store, one of its categories or products it rebuilds the merchant's whole page from
 * the write tables, so the order in which events arrive does not matter and a replay of the log
 * ends at the same pages.
 */
@Injectable()
export class StorePageProjection implements EventConsumer {
  readonly name = 'store-pages';
  // A coupon going live or ending can open or close a store's default page (reveals cannot).
  readonly handles = [
    ...STORE_PAGE_EVENTS,
    ...MERCHANT_VISIBILITY_EVENTS,
    CouponApproved.type,
    CouponExpired.type,
    CouponWithdrawn.type,
  ];

  async handle(event: PublishedEvent<{ merchantId?: number }>, manager: EntityManager): Promise<void> {
    // Merchant events name the merchant as their aggregate; storefront and coupon events in their payload.
    const merchantId = Number(event.payload.merchantId ?? event.aggregateId);
    // Pages of one merchant are built one at a time: two events of it in parallel cannot
    // leave the older build last.
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`store-page:${merchantId}`]);
    // Delivered when this transaction commits: every API process drops its ready pages then.
    await manager.query(`SELECT pg_notify('${STORE_PAGES_CHANNEL}', $1)`, [String(merchantId)]);
    const page = await buildStorePage(manager, merchantId);
    if (!page) {
      await manager.query('DELETE FROM store_pages WHERE merchant_id = $1', [merchantId]);
      return;
    }
    await manager.query(
      `INSERT INTO store_pages (merchant_id, slug, document, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (merchant_id) DO UPDATE SET slug = EXCLUDED.slug, document = EXCLUDED.document, updated_at = now()`,
      [merchantId, page.slug, JSON.stringify(page)],
    );
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_notify('${STORE_PAGES_CHANNEL}', '')`);
    await manager.query('TRUNCATE store_pages');
  }
}
