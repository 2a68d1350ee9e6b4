import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { countIntoDailyFigures, DAILY_FIGURES_CONSUMER } from '../analytics/queries/daily-figures.js';
import { ClickedOut } from '../clicks/events/click-events.js';
import { CouponApproved, CouponRevealed } from '../coupons/events/coupon-events.js';
import { couponsOfStores } from '../coupons/queries/store-coupons.js';
import { CashbackConfirmed, EarningPaid, PurchaseRecorded } from '../earnings/events/earnings-events.js';
import { demoMerchantIds } from '../identity/demo-merchants.js';
import { UserRegistered } from '../identity/events/account-events.js';
import type { DomainEvent, PublishedEvent } from '../infrastructure/events/domain-event.js';
import { eventLogged, markEventsHandled } from '../infrastructure/events/handled-events.js';
import { appendToOutbox } from '../infrastructure/events/unit-of-work.js';
import { ANALYTICS } from '../rules/analytics.js';
import { marketClock } from '../rules/coupons.js';
import { DEMO_STORES } from './coupons.js';
import type { Seed } from './seeds.js';

const DAY_MS = 86_400_000;
/** India is 5 h 30 min ahead of UTC all year (no daylight saving). */
const INDIA_OFFSET_MS = 5.5 * 3_600_000;
/** Events of the history name no real user, earning, click or past coupon. */
const NO_RECORD = '0';
const CASHBACK_RATE = 0.05;

/** A small seeded generator: the same history on every fresh database. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const poisson = (mean: number) => {
    // Knuth's method: fine for the small daily means here.
    const limit = Math.exp(-mean);
    let k = 0;
    for (let p = next(); p > limit; p *= next()) k += 1;
    return k;
  };
  return {
    next,
    poisson,
    between: (low: number, high: number) => low + Math.floor(next() * (high - low + 1)),
  };
}

/** A stable event id, so a second run recognises the history it wrote. */
function demoEventId(index: number): string {
  const hex = createHash('sha256').update(`demo-analytics:${index}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The event as it happened `at`: the history is written now about days past. */
function happened<E extends DomainEvent<object>>(event: E, at: number, index: number): E {
  return Object.assign(event, { id: demoEventId(index), occurredAt: new Date(at) });
}

/** An instant of India's day `daysAgo` days before today, at `hour` o'clock there. */
function indiaTime(today: string, daysAgo: number, hour: number, minute: number): number {
  return (
    Date.parse(`${today}T00:00:00Z`) - daysAgo * DAY_MS + (hour * 60 + minute) * 60_000 - INDIA_OFFSET_MS
  );
}

/** Shoppers buy more at weekends and in the sale ten days ago; the site grows a little each week. */
function demand(at: number, daysAgo: number): number {
  const weekday = new Date(at + INDIA_OFFSET_MS).getUTCDay();
  const weekend = weekday === 0 || weekday === 6 ? 1.35 : 1;
  const sale = daysAgo >= 9 && daysAgo <= 11 ? 1.9 : 1;
  const growth = 1 + (ANALYTICS.defaultDays - daysAgo) / 60;
  return weekend * sale * growth;
}

const PAST_OFFERS = [
  'Monsoon skin care 30% off',
  'Independence Day sale: flat 25% off',
  'Free shipping on hair oils',
  'Attar sampler at ₹199',
  'Raksha Bandhan gift boxes 20% off',
  'Buy 1 get 1 on face washes',
];

interface History {
  /** Events whose other consumers (mails, rewards) must not act as if they happened today. */
  quiet: DomainEvent<object>[];
  /** Events every consumer may see: reveals and click-outs also count on the coupons' cards. */
  published: DomainEvent<object>[];
}

/** Thirty days of a believable marketplace, as the events it would have recorded. */
function history(
  coupons: Array<{ id: number; merchantId: number; weight: number }>,
  merchantIds: number[],
  now: number,
): History {
  const random = generator(20261124);
  const today = marketClock(now).day;
  const quiet: DomainEvent<object>[] = [];
  const published: DomainEvent<object>[] = [];
  let index = 0;
  const at = (daysAgo: number) => {
    const time = indiaTime(today, daysAgo, random.between(8, 23), random.between(0, 59));
    return time < now ? time : null;
  };
  for (let daysAgo = ANALYTICS.defaultDays - 1; daysAgo >= 0; daysAgo -= 1) {
    const noon = indiaTime(today, daysAgo, 12, 0);
    const busy = demand(noon, daysAgo);
    for (let n = random.poisson(5 * busy); n > 0; n -= 1) {
      const time = at(daysAgo);
      if (time === null) continue;
      quiet.push(
        happened(
          new UserRegistered(NO_RECORD, {
            referralCode: '',
            referredBy: '',
          }),
          time,
          index++,
        ),
      );
    }
    for (let n = random.poisson(1.2); n > 0; n -= 1) {
      const time = at(daysAgo);
      if (time === null) continue;
      const merchantId = merchantIds[random.between(0, merchantIds.length - 1)]!;
      const title = PAST_OFFERS[random.between(0, PAST_OFFERS.length - 1)]!;
      quiet.push(happened(new CouponApproved(NO_RECORD, { merchantId, slotId: 1, title }), time, index++));
    }
    for (const coupon of coupons) {
      const reveals = random.poisson(coupon.weight * busy);
      for (let n = 0; n < reveals; n += 1) {
        const time = at(daysAgo);
        if (time === null) continue;
        published.push(
          happened(new CouponRevealed(String(coupon.id), { merchantId: coupon.merchantId }), time, index++),
        );
        // About half of those who see a code go on to the store, and one in eight of them buys.
        if (random.next() >= 0.55) continue;
        const outAt = time + random.between(1, 5) * 60_000;
        if (outAt >= now) continue;
        published.push(
          happened(
            new ClickedOut(NO_RECORD, { couponId: coupon.id, merchantId: coupon.merchantId, userId: null }),
            outAt,
            index++,
          ),
        );
        if (random.next() >= 0.125) continue;
        const boughtAt = outAt + random.between(5, 40) * 60_000;
        if (boughtAt >= now) continue;
        const purchaseAmountPaise = random.between(299, 4999) * 100;
        const cashbackPaise = Math.round(purchaseAmountPaise * CASHBACK_RATE);
        published.push(
          happened(
            new PurchaseRecorded(NO_RECORD, {
              merchantId: coupon.merchantId,
              couponId: coupon.id,
              userId: 0,
              purchaseAmountPaise,
              cashbackPaise,
            }),
            boughtAt,
            index++,
          ),
        );
        // The return window passes before cashback is confirmed; paid a few days after that.
        const confirmedAt = boughtAt + random.between(7, 10) * DAY_MS;
        if (confirmedAt >= now || random.next() < 0.1) continue;
        quiet.push(
          happened(
            new CashbackConfirmed(NO_RECORD, {
              userId: 0,
              merchantId: coupon.merchantId,
              amountPaise: cashbackPaise,
            }),
            confirmedAt,
            index++,
          ),
        );
        const paidAt = confirmedAt + random.between(2, 6) * DAY_MS;
        if (paidAt >= now) continue;
        quiet.push(
          happened(
            new EarningPaid(NO_RECORD, { kind: 'cashback', amountPaise: cashbackPaise }),
            paidAt,
            index++,
          ),
        );
      }
    }
  }
  return { quiet, published };
}

async function append(manager: EntityManager, events: DomainEvent<object>[]) {
  for (let start = 0; start < events.length; start += 1000) {
    await appendToOutbox(manager, events.slice(start, start + 1000));
  }
}

/**
 * Thirty days of history for the dashboards: reveals, click-outs and purchases of the demo
 * stores' coupons, sign-ups, approvals of earlier offers, cashback confirmed and paid. Written as
 * back-dated events into the outbox, the event log the figures are counted from, so a rebuild
 * counts them again. Reveals, click-outs and purchases go through the workers like any event (the
 * reveals also count on the coupons' cards); sign-ups, approvals and cashback are entered as
 * already handled and counted here with the projection's own function, so no welcome or
 * cashback mail goes out about them. They name no real shopper, earning or click. Not in production.
 */
export const demoAnalyticsSeed: Seed = {
  name: 'analytics',
  async run(dataSource: DataSource, environment) {
    if (environment.NODE_ENV === 'production') return undefined;
    return dataSource.transaction(async (manager) => {
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('seed:analytics'))");
      if (await eventLogged(manager, demoEventId(0))) return undefined;
      const rows = await couponsOfStores(
        manager,
        await demoMerchantIds(
          manager,
          DEMO_STORES.map((store) => store.user),
        ),
      );
      if (rows.length === 0) return 'skipped: no demo coupons';
      // Some offers draw far more shoppers than others: between 0.5 and 6 reveals a day.
      const weights = generator(7);
      const coupons = rows.map((row) => ({ ...row, weight: 0.5 + 5.5 * weights.next() ** 2 }));
      const merchantIds = [...new Set(rows.map((row) => row.merchantId))];
      const { quiet, published } = history(coupons, merchantIds, Date.now());
      await append(manager, published);
      await append(manager, quiet);
      const ids = quiet.map((event) => event.id);
      await markEventsHandled(manager, DAILY_FIGURES_CONSUMER, ids);
      const logged: PublishedEvent[] = quiet.map((event) => ({
        id: event.id,
        position: '0',
        type: event.type,
        aggregateType: event.aggregateType,
        aggregateId: event.aggregateId,
        payload: event.payload as Record<string, unknown>,
        occurredAt: event.occurredAt.toISOString(),
      }));
      await countIntoDailyFigures(logged, manager);
      return `${published.length + quiet.length} events of the last ${ANALYTICS.defaultDays} days for the dashboards`;
    });
  },
};
