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
  countCouponClick,
  emptyCouponListings,
  liveCouponIdsOfStore,
  recountCouponVotes,
  showCouponListings,
  storeIdentities,
  storesOfCoupons,
} from '@offers/api/read-models';
import type { EntityManager } from 'typeorm';
import type { EventConsumer } from '../events/event-consumer.js';

/** Events of a merchant that change how each of its coupons is shown. */
const MERCHANT_EVENTS = [...MERCHANT_VISIBILITY_EVENTS, StoreSaved.type] as const;

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
    // The stores of every coupon the lot shows or hides, read from their owners once for the lot.
    const stores = await this.publicStores(
      manager,
      changes.flatMap(({ event, couponIds }) => (COUNTING_EVENTS.includes(event.type) ? [] : couponIds)),
    );
    // Coupons shown or hidden one after another are projected together (a feed's lot is
    // thousands): a click or a vote in between is counted in its place.
    let projecting: number[] = [];
    for (const { event, couponIds } of changes) {
      if (!COUNTING_EVENTS.includes(event.type)) {
        projecting.push(...couponIds);
        continue;
      }
      await showCouponListings(manager, projecting, stores);
      projecting = [];
      // Clicks reorder the popular lists; the API's ready lists pick that up within a minute.
      if (event.type === CouponRevealed.type)
        await countCouponClick(manager, couponIds[0]!, event.occurredAt);
      else await recountCouponVotes(manager, couponIds[0]!);
    }
    await showCouponListings(manager, projecting, stores);
  }

  /**
   * The coupons an event changes. A merchant confirmed its email, an admin hid or showed its store,
   * or it saved its store (name, logo): each live coupon of it is shown again. Merchant events name
   * the merchant as their aggregate; StoreSaved in its payload.
   */
  private couponsOf(event: PublishedEvent, manager: EntityManager): Promise<number[]> {
    if (!(MERCHANT_EVENTS as readonly string[]).includes(event.type))
      return Promise.resolve([Number(event.aggregateId)]);
    const merchantId = Number((event.payload as { merchantId?: number }).merchantId ?? event.aggregateId);
    return liveCouponIdsOfStore(manager, merchantId);
  }

  /**
   * The stores of these coupons that shoppers may see (coupons of the others are hidden), read from
   * their owners (coupons, identity, storefront) once, whatever the number of coupons; the listing
   * rows are then written by coupons.
   */
  private async publicStores(manager: EntityManager, couponIds: readonly number[]) {
    if (couponIds.length === 0) return [];
    const stores = await storeIdentities(manager, await storesOfCoupons(manager, couponIds));
    return [...stores.values()].filter((store) => store.isPublic);
  }

  async reset(manager: EntityManager): Promise<void> {
    await emptyCouponListings(manager);
  }
}
