import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COUPON_VOTES } from '@offers/api/rules';
import { CouponListingProjection } from '@offers/workers/consumers';
import { registerAndSignInMerchant, registerAndSignInUser } from '../support/accounts.js';
import {
  approve,
  type Marketplace,
  merchantWithCoupon,
  startMarketplace,
  submitCoupon,
  untilEventsProcessed,
} from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

/**
 * "Did this code work?" votes and "used today", from the API through the events to the cards of
 * `GET /api/coupons`, as the workers keep them in the listing read model.
 */

let market: Marketplace;

beforeAll(async () => {
  market = await startMarketplace('coupon votes');
}, 60_000);

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

/** A visitor without an account, known by its address (sent as a trusted proxy would). */
function visitor(address: string, headers: Record<string, string> = {}) {
  return (couponId: number, worked: unknown) =>
    inject('POST', `/api/coupons/${couponId}/votes`, { 'x-forwarded-for': address, ...headers }, { worked });
}

// Lists are kept ready for up to a minute after a vote: each read asks for a page size not asked before.
let perPage = 100;
async function card(couponId: number) {
  perPage -= 1;
  const response = await inject('GET', `/api/coupons?perPage=${perPage}`);
  return response.json().data.find((item: { id: number }) => item.id === couponId);
}

async function liveCoupon(title: string) {
  const { couponId } = await merchantWithCoupon(market, { title });
  expect((await approve(market, couponId)).statusCode).toBe(200);
  await untilEventsProcessed(market);
  return couponId;
}

describe('did this code work?', () => {
  it('counts one vote per visitor a day and shows the success rate from the fifth vote', async () => {
    const couponId = await liveCoupon('Kesar face pack 30% off');
    const fresh = await card(couponId);
    expect(fresh).toMatchObject({ votes: 0, successRate: null, usedToday: 0 });
    expect(fresh.verifiedAt).toBe(fresh.verifiedAt && new Date(fresh.verifiedAt).toISOString());

    const voters = ['10.1.0.1', '10.1.0.2', '10.1.0.3', '10.1.0.4', '10.1.0.5'].map((address) =>
      visitor(address),
    );
    for (const [index, vote] of voters.slice(0, 4).entries()) {
      const response = await vote(couponId, index !== 3);
      expect(response.statusCode).toBe(202);
    }
    // The same visitor again the same day: its vote is replaced, not added.
    expect((await voters[3]!(couponId, true)).statusCode).toBe(202);
    await untilEventsProcessed(market);
    expect(await card(couponId)).toMatchObject({ votes: 4, successRate: null });

    await voters[4]!(couponId, false);
    await untilEventsProcessed(market);
    expect(await card(couponId)).toMatchObject({ votes: 5, successRate: 80 });
    const [{ kept }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS kept FROM coupon_votes WHERE coupon_id = $1',
      [couponId],
    );
    expect(kept).toBe(5);
  });

  it('counts an address once a day whatever its cookies, and a /64 of IPv6 as one address', async () => {
    const couponId = await liveCoupon('Sandal soap 3 for 2');
    const [{ before }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS before FROM outbox WHERE type = $1',
      ['CouponVoted'],
    );
    // Five votes from one address, each with another cookie or none: one voter.
    for (const cookie of [
      '',
      'visitor=aaaaaaaaaaaaaaaaaaaaaa',
      'visitor=bbbbbbbbbbbbbbbbbbbbbb',
      'x=1',
      '',
    ]) {
      const response = await visitor('10.4.0.1', cookie ? { cookie } : {})(couponId, true);
      expect(response.statusCode).toBe(202);
    }
    // Three addresses of one IPv6 /64 network, and the same address written as IPv4-mapped IPv6.
    for (const address of [
      '2001:db8:5:6::1',
      '2001:db8:5:6:ffff::2',
      '2001:db8:5:6:1:2:3:4',
      '::ffff:10.4.0.1',
    ]) {
      expect((await visitor(address)(couponId, false)).statusCode).toBe(202);
    }
    await untilEventsProcessed(market);
    const votes = await market.api.dataSource.query(
      'SELECT visitor, worked FROM coupon_votes WHERE coupon_id = $1 ORDER BY visitor',
      [couponId],
    );
    expect(votes).toEqual([
      { visitor: 'address:10.4.0.1', worked: false },
      { visitor: 'address:2001:db8:5:6::/64', worked: false },
    ]);
    expect(await card(couponId)).toMatchObject({ votes: 2 });
    const [{ after }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS after FROM outbox WHERE type = $1',
      ['CouponVoted'],
    );
    // Every vote is recorded (a changed answer replaces the day's vote), but counts once per voter.
    expect(after - before).toBe(9);
  });

  it('counts a signed-in shopper as the account, whatever its cookies and address', async () => {
    const couponId = await liveCoupon('Rose body mist 15% off');
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    for (const [address, worked] of [
      ['10.2.0.1', true],
      ['10.2.0.2', false],
    ] as const) {
      const response = await inject(
        'POST',
        `/api/coupons/${couponId}/votes`,
        { ...session.bearer, 'x-forwarded-for': address },
        { worked },
      );
      expect(response.statusCode).toBe(202);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    const votes = await market.api.dataSource.query(
      'SELECT visitor, worked FROM coupon_votes WHERE coupon_id = $1',
      [couponId],
    );
    expect(votes).toEqual([{ visitor: `user:${session.id}`, worked: false }]);
  });

  it('refuses what is not a vote on a live coupon with a 4xx and keeps nothing', async () => {
    const { merchant, couponId: pending } = await merchantWithCoupon(market);
    const live = await submitCoupon(market, merchant);
    await approve(market, live);
    const vote = visitor('10.3.0.1');
    for (const [body, status] of [
      ['yes', 400],
      [1, 400],
      [null, 400],
      [undefined, 400],
    ] as const) {
      const response = await vote(live, body);
      expect([body, response.statusCode]).toEqual([body, status]);
      expect(response.json().errors).toEqual({ worked: [COUPON_VOTES.workedRequired] });
    }
    expect((await vote(pending, true)).statusCode).toBe(404);
    expect((await vote(987654, true)).statusCode).toBe(404);
    expect((await inject('POST', '/api/coupons/abc/votes', {}, { worked: true })).statusCode).toBe(400);
    const [{ kept }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS kept FROM coupon_votes WHERE coupon_id = ANY($1)',
      [[live, pending]],
    );
    expect(kept).toBe(0);
  });

  it('orders by the latest confirmation that a code works (sort=verified) and counts an event delivered twice once', async () => {
    const older = await liveCoupon('Sandal soap 10% off');
    const newer = await liveCoupon('Aloe gel 12% off');
    const order = async () => {
      perPage -= 1;
      const { data } = (await inject('GET', `/api/coupons?sort=verified&perPage=${perPage}`)).json();
      return data.map((item: { id: number }) => item.id).filter((id: number) => id === older || id === newer);
    };
    expect(await order()).toEqual([newer, older]);

    await visitor('10.4.0.1')(older, true);
    await untilEventsProcessed(market);
    expect(await order()).toEqual([older, newer]);
    const voted = await card(older);
    const [{ voted_at }] = await market.api.dataSource.query(
      'SELECT voted_at FROM coupon_votes WHERE coupon_id = $1',
      [older],
    );
    expect(voted.verifiedAt).toBe(new Date(voted_at).toISOString());

    // The workers may be handed the same event again (a retry): the counts stay.
    const [event] = await market.api.dataSource.query(
      `SELECT id, type, aggregate_type AS "aggregateType", aggregate_id AS "aggregateId", payload,
              occurred_at AS "occurredAt"
       FROM outbox WHERE type = 'CouponVoted' AND aggregate_id = $1`,
      [String(older)],
    );
    const projection = market.workers.module.get(CouponListingProjection);
    await market.api.dataSource.transaction((manager) => projection.handle(event, manager));
    expect(await card(older)).toMatchObject({ votes: 1, successRate: null });
  });
});

describe('used today', () => {
  it('counts the reveals of the day in India, once per address, on the card', async () => {
    const couponId = await liveCoupon('Onion hair oil 20% off');
    for (const address of ['10.5.0.1', '10.5.0.2', '10.5.0.3', '10.5.0.3']) {
      expect(
        (await inject('POST', `/api/coupons/${couponId}/reveal`, { 'x-forwarded-for': address })).statusCode,
      ).toBe(200);
    }
    await untilEventsProcessed(market);
    await eventually(async () => (await card(couponId))?.usedToday === 3, 'three reveals today', 5_000);

    // A new day in India: yesterday's reveals no longer count.
    await market.api.dataSource.query('UPDATE coupon_listings SET today = today - 1 WHERE coupon_id = $1', [
      couponId,
    ]);
    expect((await card(couponId)).usedToday).toBe(0);
  });

  it('keeps a merchant’s own store name on the card with its votes', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Vote Store' });
    const couponId = await submitCoupon(market, session);
    await approve(market, couponId);
    await untilEventsProcessed(market);
    expect((await card(couponId)).merchant.name).toBe('Vote Store');
  });
});
