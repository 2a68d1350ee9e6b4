import { Injectable } from '@nestjs/common';
import {
  CouponApproved,
  CouponEnded,
  CouponExpired,
  CouponWithdrawn,
  MERCHANT_VISIBILITY_EVENTS,
  type PublishedEvent,
  STORE_PAGE_EVENTS,
  STORE_PAGES_CHANNEL,
} from '@offers/api/events';
import { buildStorePage, emptyStorePages, replaceStorePage } from '@offers/api/read-models';
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
    CouponEnded.type,
    CouponWithdrawn.type,
  ];

  handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    return this.handleLot([event], manager);
  }

  /** Each merchant of the lot gets its page built once, however many of its events the lot holds. */
  async handleLot(events: PublishedEvent[], manager: EntityManager): Promise<void> {
    // Merchant events name the merchant as their aggregate; storefront and coupon events in their payload.
    const merchantIds = events.map((event) =>
      Number((event.payload as { merchantId?: number }).merchantId ?? event.aggregateId),
    );
    // Pages of one merchant are built one at a time (two lots of it in parallel cannot leave the
    // older build last), and a lot locks its merchants at once, in one order, so lots in parallel
    // never wait for each other in a cycle. The notifications are delivered when this transaction
    // commits: every API process drops those merchants' ready pages then.
    const locked: Array<{ id: number }> = await manager.query(
      `SELECT id, pg_advisory_xact_lock(hashtext('store-page:' || id)), pg_notify('${STORE_PAGES_CHANNEL}', id::text)
       FROM (SELECT DISTINCT unnest($1::int[]) AS id ORDER BY 1) ordered`,
      [merchantIds],
    );
    for (const { id } of locked) await this.build(id, manager);
  }

  private async build(merchantId: number, manager: EntityManager): Promise<void> {
    await replaceStorePage(manager, merchantId, await buildStorePage(manager, merchantId));
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_notify('${STORE_PAGES_CHANNEL}', '')`);
    await emptyStorePages(manager);
  }
}
