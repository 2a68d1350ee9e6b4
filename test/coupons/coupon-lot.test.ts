import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import {
  AddCoupon,
  ApplyCouponLot,
  type CouponDraft,
  type CouponLot,
  EndCoupons,
  ReviseCoupon,
} from '@offers/api/commands';
import { registerAndSignInMerchant } from '../support/accounts.js';
import {
  commandsOf,
  type Marketplace,
  startMarketplace,
  untilEventsProcessed,
} from '../support/marketplace.js';

/**
 * A lot of coupons that come without a form (a feed's): added, revised and ended in one
 * transaction, with the events and read models the single commands give.
 */

let market: Marketplace;
let single: number;
let lotStore: number;

beforeAll(async () => {
  market = await startMarketplace('coupon lots');
  single = (await registerAndSignInMerchant(market.api.baseUrl)).session.id;
  lotStore = (await registerAndSignInMerchant(market.api.baseUrl)).session.id;
}, 60_000);

afterAll(async () => {
  await market?.close();
});

const inAMonth = () => new Date(Date.now() + 30 * 24 * 3600_000);

function draft(n: number, overrides: Partial<CouponDraft> = {}): CouponDraft {
  return {
    code: `LOT${n}`,
    title: `Flat ${10 + n}% off on shoes`,
    description: `Lot coupon ${n}, on orders above ₹499.`,
    terms: 'Once per account.',
    percentage: 10 + n,
    discountValue: null,
    expiryDate: inAMonth(),
    exclusive: n % 2 === 0,
    merchantUrl: null,
    categoryIds: [1],
    texts: {},
    ...overrides,
  };
}

const DRAFTS = [
  draft(1),
  draft(2, {
    code: null,
    title: 'Free delivery on every order',
    percentage: null,
    expiryDate: null,
    texts: { hi: { title: 'हर ऑर्डर पर मुफ़्त डिलीवरी', description: 'पूरे भारत में।', terms: null } },
  }),
  draft(3, { discountValue: 250, percentage: null }),
];

/** What the public lists show of a store's coupons, in the order they were added. */
async function listingsOf(merchantId: number) {
  await untilEventsProcessed(market);
  return market.api.dataSource.query(
    `SELECT title, description, terms, percentage, discount_value AS "discountValue", expires_at AS "expiresAt",
            category_ids AS "categoryIds", has_code AS "hasCode", exclusive, texts
     FROM coupon_listings WHERE merchant_id = $1 ORDER BY coupon_id`,
    [merchantId],
  );
}

const eventTypes = (merchantId: number) =>
  market.api.dataSource.query(
    `SELECT type, count(*)::int AS n FROM outbox
     WHERE aggregate_type = 'Coupon' AND (payload->>'merchantId')::int = $1 GROUP BY type ORDER BY type`,
    [merchantId],
  );

describe('a lot of coupons', () => {
  let singleIds: number[];
  let lotIds: number[];

  it('adds them as AddCoupon does each, in one transaction, repeats and refusals aside', async () => {
    singleIds = [];
    for (const each of DRAFTS) {
      const added = await commandsOf(market).execute(new AddCoupon(single, 1, each, true));
      expect(added.status).toBe('live');
      singleIds.push(added.couponId);
    }

    const lot: CouponLot = {
      slotId: 1,
      publish: true,
      added: [
        ...DRAFTS.map((each) => ({ merchantId: lotStore, draft: each })),
        // The same code in other case, a deal's title in other spacing and case, an end passed.
        { merchantId: lotStore, draft: draft(4, { code: 'lot1' }) },
        { merchantId: lotStore, draft: draft(5, { code: null, title: 'FREE  delivery on every order!' }) },
        { merchantId: lotStore, draft: draft(6, { expiryDate: new Date(Date.now() - 60_000) }) },
      ],
      revised: [],
      ended: [],
    };
    const result = await commandsOf(market).execute(new ApplyCouponLot(lot));
    const outcomes = result.added as Array<Record<string, unknown>>;

    expect(outcomes.slice(0, 3).map((added) => added.status)).toEqual(['live', 'live', 'live']);
    expect(result.added[3]).toEqual({ duplicate: true });
    expect(result.added[4]).toEqual({ duplicate: true });
    expect(outcomes[5]!.refused).toBeInstanceOf(BadRequestException);
    lotIds = outcomes.slice(0, 3).map((added) => added.couponId as number);
    expect(lotIds).toEqual([...lotIds].sort((a, b) => a - b));

    // One transaction wrote the coupons and their approvals.
    const written = await market.api.dataSource.query(
      'SELECT DISTINCT xmin::text FROM coupons WHERE merchant_id = $1',
      [lotStore],
    );
    expect(written).toHaveLength(1);
    expect(await eventTypes(lotStore)).toEqual(await eventTypes(single));
    expect(await eventTypes(lotStore)).toEqual([
      { type: 'CouponApproved', n: 3 },
      { type: 'CouponSubmitted', n: 3 },
    ]);
    expect(await listingsOf(lotStore)).toEqual(await listingsOf(single));
    expect(await listingsOf(lotStore)).toHaveLength(3);
  });

  it('revises and ends them as ReviseCoupon and EndCoupons do', async () => {
    const revision = draft(1, { title: 'Flat 40% off on shoes this week', percentage: 40, exclusive: true });
    await commandsOf(market).execute(new ReviseCoupon(singleIds[0]!, revision, null));
    await commandsOf(market).execute(new EndCoupons([singleIds[1]!]));
    const result = await commandsOf(market).execute(
      new ApplyCouponLot({
        slotId: 1,
        publish: true,
        added: [],
        revised: [
          { couponId: lotIds[0]!, draft: revision, comeBack: null },
          { couponId: lotIds[2]!, draft: draft(3, { title: '' }), comeBack: null },
        ],
        ended: [lotIds[1]!],
      }),
    );

    expect(result.revised[0]).toEqual({ status: 'live' });
    expect((result.revised[1] as { refused: unknown }).refused).toBeInstanceOf(BadRequestException);
    expect(result.ended).toEqual([lotIds[1]]);
    expect(await listingsOf(lotStore)).toEqual(await listingsOf(single));
    expect(await eventTypes(lotStore)).toEqual(await eventTypes(single));
  });

  it('finds repeats of the store coupons already there', async () => {
    const result = await commandsOf(market).execute(
      new ApplyCouponLot({
        slotId: 1,
        publish: true,
        added: [
          { merchantId: lotStore, draft: draft(7, { code: 'LOT3' }) },
          // Ended coupons are no longer repeated.
          { merchantId: lotStore, draft: draft(8, { code: null, title: 'Free delivery on every order' }) },
        ],
        revised: [],
        ended: [],
      }),
    );
    expect(result.added[0]).toEqual({ duplicate: true });
    expect(result.added[1]).toMatchObject({ status: 'live' });
  });

  it('fills a slot to its capacity, the rest waiting for review', async () => {
    const [slot] = await market.api.dataSource.query(
      "INSERT INTO slots (name, kind, capacity) VALUES ('Lot slot', 'free', 2) RETURNING id",
    );
    const result = await commandsOf(market).execute(
      new ApplyCouponLot({
        slotId: slot.id,
        publish: true,
        added: [10, 11, 12, 13].map((n) => ({ merchantId: lotStore, draft: draft(n) })),
        revised: [],
        ended: [],
      }),
    );
    expect(result.added.map((added) => ('status' in added ? added.status : added))).toEqual([
      'live',
      'live',
      'pending',
      'pending',
    ]);
    const [{ live }] = await market.api.dataSource.query(
      "SELECT count(*)::int AS live FROM coupons WHERE slot_id = $1 AND status = 'live'",
      [slot.id],
    );
    expect(live).toBe(2);
  });
});
