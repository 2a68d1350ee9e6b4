import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CouponRevealed, DomainEvent, type PublishedEvent, UserRegistered } from '@offers/api/events';
import { appendToOutbox, migrations } from '@offers/api/platform';
import { ANALYTICS, marketClock } from '@offers/api/rules';
import { CouponListingProjection, DailyFiguresProjection } from '@offers/workers/consumers';
import { EventDispatcher, rebuildProjection } from '@offers/workers/events';
import { registerAndSignInMerchant, registerAndSignInUser, type Session } from '../support/accounts.js';
import {
  approve,
  type Marketplace,
  merchantWithCoupon,
  startMarketplace,
  submitCoupon,
  untilEventsProcessed,
} from '../support/marketplace.js';

let market: Marketplace;
let merchant: Session;
let other: Session;
let couponId: number;
let secondCouponId: number;
let othersCouponId: number;
let shopper: Session;
let secret: string;
let signUps = 0;

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

/** A reveal from its own address: one address's reveals of a coupon count once in ten minutes. */
let address = 0;
const reveal = (id: number) => {
  address += 1;
  return inject('POST', `/api/coupons/${id}/reveal`, {
    'x-forwarded-for': `10.77.${Math.floor(address / 250)}.${(address % 250) + 1}`,
  });
};

function postback(body: Record<string, unknown>) {
  const raw = JSON.stringify(body);
  const signature = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  return inject(
    'POST',
    '/api/postbacks/purchases',
    { 'content-type': 'application/json', 'x-signature': signature },
    raw,
  );
}

const today = () => marketClock(Date.now()).day;

/** The day's row of a series. */
const dayOf = <T extends { day: string }>(series: T[], day: string) => series.find((row) => row.day === day)!;

beforeAll(async () => {
  market = await startMarketplace('analytics', {
    consumers: [CouponListingProjection, DailyFiguresProjection],
  });
  ({ merchant, couponId } = await merchantWithCoupon(market));
  secondCouponId = await submitCoupon(market, merchant);
  ({ merchant: other, couponId: othersCouponId } = await merchantWithCoupon(market));
  for (const id of [couponId, secondCouponId, othersCouponId])
    expect((await approve(market, id)).statusCode).toBe(200);
  secret = (await inject('GET', '/api/merchant/postback-secret', merchant.bearer)).json().secret;
  shopper = (await registerAndSignInUser(market.api.baseUrl)).session;
  signUps = 1;
}, 120_000);

afterAll(async () => {
  await market?.close();
});

describe('daily figures from the event log', () => {
  it('counts reveals, click-outs, purchases and cashback of the day, per coupon and in total', async () => {
    for (let n = 0; n < 3; n += 1) expect((await reveal(couponId)).statusCode).toBe(200);
    expect((await reveal(secondCouponId)).statusCode).toBe(200);
    expect((await reveal(othersCouponId)).statusCode).toBe(200);
    // Two shoppers' click-outs (one address's within the click window would count once): a
    // visitor's, and the signed-in shopper's that the store's postback then names.
    expect((await inject('GET', `/api/out/${couponId}`, { 'x-forwarded-for': '10.90.0.1' })).statusCode).toBe(
      302,
    );
    const click = await inject('GET', `/api/out/${couponId}`, {
      'x-forwarded-for': '10.90.0.2',
      ...shopper.bearer,
    });
    expect(click.statusCode).toBe(302);
    const bought = await postback({
      purchaseReference: `ORD-${Date.now()}`,
      clickId: new URL(String(click.headers.location)).searchParams.get('subid'),
      purchaseType: 'online',
      purchaseAmount: '1999.00',
    });
    expect(bought.statusCode).toBe(201);
    const earningId = bought.json().id;
    expect((await inject('POST', `/api/admin/cashbacks/${earningId}/confirm`, market.admin)).statusCode).toBe(
      200,
    );
    expect((await inject('POST', `/api/admin/cashbacks/${earningId}/pay`, market.admin)).statusCode).toBe(
      200,
    );
    await registerAndSignInUser(market.api.baseUrl);
    signUps += 1;
    await untilEventsProcessed(market);

    const all = await inject('GET', '/api/merchant/analytics', merchant.bearer);
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.series).toHaveLength(ANALYTICS.defaultDays);
    expect(body.to).toBe(today());
    expect(dayOf(body.series, today())).toEqual({
      day: today(),
      reveals: 4,
      clickOuts: 2,
      purchases: 1,
      sales: '1999.00',
    });
    expect(body.totals).toEqual({ reveals: 4, clickOuts: 2, purchases: 1, sales: '1999.00' });
    expect(body.topCoupons.reveals.map((c: { couponId: number }) => c.couponId)).toEqual([
      couponId,
      secondCouponId,
    ]);
    expect(body.topCoupons.reveals[0]).toMatchObject({ reveals: 3, clickOuts: 2, purchases: 1 });
    expect(body.topCoupons.purchases.map((c: { couponId: number }) => c.couponId)).toEqual([couponId]);
    expect(body.coupons.map((c: { id: number }) => c.id).sort()).toEqual([couponId, secondCouponId].sort());

    const one = (
      await inject('GET', `/api/merchant/analytics?couponId=${secondCouponId}&days=7`, merchant.bearer)
    ).json();
    expect(one.couponId).toBe(secondCouponId);
    expect(one.series).toHaveLength(7);
    expect(dayOf(one.series, today())).toMatchObject({ reveals: 1, clickOuts: 0, purchases: 0 });

    const admin = await inject('GET', '/api/admin/analytics', market.admin);
    expect(admin.statusCode).toBe(200);
    expect(dayOf(admin.json().series, today())).toEqual({
      day: today(),
      signUps,
      couponsApproved: 3,
      reveals: 5,
      // 5 % of ₹1,999.00
      cashbackConfirmed: '99.95',
      cashbackPaid: '99.95',
    });
    expect(admin.json().totals).toMatchObject({ signUps, couponsApproved: 3, reveals: 5 });
  });

  it('fills every day of the period with zeros, oldest first', async () => {
    for (const days of [1, 7, 90]) {
      const { series, from, to } = (
        await inject('GET', `/api/merchant/analytics?days=${days}`, merchant.bearer)
      ).json();
      expect(series).toHaveLength(days);
      expect(series[0].day).toBe(from);
      expect(series.at(-1).day).toBe(to);
      const dates = series.map((row: { day: string }) => Date.parse(row.day));
      expect(dates.every((date: number, i: number) => i === 0 || date - dates[i - 1] === 86_400_000)).toBe(
        true,
      );
    }
    const quiet = (await inject('GET', '/api/admin/analytics?days=90', market.admin)).json().series[0];
    expect(quiet).toMatchObject({ signUps: 0, reveals: 0, cashbackConfirmed: '0.00' });
  });

  it("counts an event on India's day it happened, whenever it is delivered", async () => {
    // 20:00 UTC is 01:30 the next morning in India.
    const yesterday = new Date(Date.parse(`${today()}T00:00:00Z`) - 86_400_000);
    const lateEvening = new Date(yesterday.getTime() - 4 * 3_600_000);
    const event = Object.assign(new CouponRevealed(String(secondCouponId), { merchantId: merchant.id }), {
      occurredAt: lateEvening,
    });
    await market.api.dataSource.transaction((manager) => appendToOutbox(manager, [event]));
    await untilEventsProcessed(market);
    const { series } = (
      await inject('GET', `/api/merchant/analytics?couponId=${secondCouponId}&days=2`, merchant.bearer)
    ).json();
    expect(series.map((row: { reveals: number }) => row.reveals)).toEqual([1, 1]);
    expect(series[0].day).toBe(yesterday.toISOString().slice(0, 10));
  });

  it('counts an event delivered twice once', async () => {
    const [row] = await market.api.dataSource.query(
      `SELECT id, position::text, type, aggregate_type AS "aggregateType", aggregate_id AS "aggregateId", payload,
              occurred_at AS "occurredAt"
       FROM outbox WHERE type = 'CouponRevealed' AND aggregate_id = $1 ORDER BY position LIMIT 1`,
      [String(othersCouponId)],
    );
    const event: PublishedEvent = { ...row, occurredAt: new Date(row.occurredAt).toISOString() };
    const dispatcher = market.workers.module.get(EventDispatcher);
    await Promise.all([dispatcher.dispatch(event), dispatcher.dispatch(event)]);
    await dispatcher.dispatch(event);
    const [{ count }] = await market.api.dataSource.query(
      "SELECT sum(count)::int AS count FROM daily_figures WHERE figure = 'reveals' AND coupon_id = $1",
      [othersCouponId],
    );
    expect(count).toBe(1);
  });

  it('rebuilds to the counts of the raw events per day, merchant and coupon', async () => {
    const figures = () =>
      market.api.dataSource.query(
        `SELECT figure, merchant_id, coupon_id, day::text, count::int, amount_paise::text FROM daily_figures
         ORDER BY figure, merchant_id, coupon_id, day`,
      );
    const before = await figures();
    const projection = market.workers.module
      .get(EventDispatcher)
      .consumers.find((consumer) => consumer.name === 'daily-figures')!;
    await market.workers.dataSource.query('DELETE FROM daily_figures');
    expect(await rebuildProjection(market.workers.dataSource, projection)).toBeGreaterThan(0);
    expect(await figures()).toEqual(before);

    // Straight from the log: reveals per India's day, merchant and coupon.
    const fromLog = await market.api.dataSource.query(
      `SELECT (payload->>'merchantId')::int AS merchant_id, aggregate_id::int AS coupon_id,
              (occurred_at AT TIME ZONE 'Asia/Kolkata')::date::text AS day, count(*)::int AS count
       FROM outbox WHERE type = 'CouponRevealed' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    );
    const perCoupon = await market.api.dataSource.query(
      `SELECT merchant_id, coupon_id, day::text, count::int FROM daily_figures
       WHERE figure = 'reveals' AND coupon_id <> 0 ORDER BY 1, 2, 3`,
    );
    expect(perCoupon).toEqual(fromLog);
    const clickOuts = await market.api.dataSource.query(
      `SELECT (SELECT count(*)::int FROM outbox WHERE type = 'ClickedOut') AS logged,
              (SELECT sum(count)::int FROM daily_figures WHERE figure = 'click-outs' AND coupon_id <> 0) AS counted`,
    );
    expect(clickOuts[0].counted).toBe(clickOuts[0].logged);
  });

  it('rebuilds to the same figures after the personal fields are removed from older payloads', async () => {
    const figures = () =>
      market.api.dataSource.query(
        `SELECT figure, merchant_id, coupon_id, day::text, count::int, amount_paise::text FROM daily_figures
         ORDER BY figure, merchant_id, coupon_id, day`,
      );
    // Sign-ups as they were recorded before events carried ids only.
    const older = [1, 2].map(
      (n) =>
        new UserRegistered(String(2_000_000 + n), {
          userName: `Older Shopper ${n}`,
          email: `older.shopper.${n}@example.in`,
          referralCode: '',
          referredBy: '',
        } as never),
    );
    // A profile change as it was recorded: with the new values.
    class OlderProfileUpdated extends DomainEvent<Record<string, string>> {
      readonly type = 'UserProfileUpdated';
      readonly aggregateType = 'User';
    }
    const profile = new OlderProfileUpdated('2000001', {
      userName: 'Older Shopper 1b',
      address: '1 Older Street',
    });
    await market.api.dataSource.transaction((manager) => appendToOutbox(manager, [...older, profile]));
    await untilEventsProcessed(market);
    const projection = market.workers.module
      .get(EventDispatcher)
      .consumers.find((consumer) => consumer.name === 'daily-figures')!;
    await rebuildProjection(market.workers.dataSource, projection);
    const before = await figures();

    const Retention = migrations.find((migration) => migration.name === 'Retention1765200000000')!;
    const runner = market.api.dataSource.createQueryRunner();
    try {
      await new Retention().up(runner);
    } finally {
      await runner.release();
    }
    const logged = await market.api.dataSource.query(
      "SELECT payload::text AS payload FROM outbox WHERE type = 'UserRegistered' ORDER BY position",
    );
    expect(logged.length).toBeGreaterThanOrEqual(older.length + signUps);
    for (const { payload } of logged)
      expect(payload).not.toMatch(/older\.shopper|Older Shopper|"email"|"userName"/);
    const [changed] = await market.api.dataSource.query('SELECT payload FROM outbox WHERE id = $1', [
      profile.id,
    ]);
    expect(changed.payload).toEqual({ changed: ['address', 'userName'] });

    await rebuildProjection(market.workers.dataSource, projection);
    expect(await figures()).toEqual(before);
  });
});

describe('who sees which figures', () => {
  it("shows a merchant its own figures only: another merchant's coupon is not found", async () => {
    const mine = (await inject('GET', '/api/merchant/analytics', other.bearer)).json();
    expect(mine.totals.reveals).toBe(1);
    expect(mine.coupons.map((c: { id: number }) => c.id)).toEqual([othersCouponId]);
    for (const id of [couponId, 2_147_483_647]) {
      const theirs = await inject('GET', `/api/merchant/analytics?couponId=${id}`, other.bearer);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json().message).toBe(ANALYTICS.couponNotFound);
    }
  });

  it('refuses a period outside 1 to 90 days, and odd coupon ids, with 400', async () => {
    for (const days of ['0', '91', '-1', 'abc', '1.5', '1e2', '99999999999999999999']) {
      const answer = await inject('GET', `/api/merchant/analytics?days=${days}`, merchant.bearer);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().errors).toEqual({ days: [ANALYTICS.daysInvalid] });
      const admin = await inject('GET', `/api/admin/analytics?days=${days}`, market.admin);
      expect(admin.statusCode).toBe(400);
      expect(admin.json().errors).toEqual({ days: [ANALYTICS.daysInvalid] });
    }
    for (const id of ['0', 'x', '2147483648']) {
      const answer = await inject('GET', `/api/merchant/analytics?couponId=${id}`, merchant.bearer);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().errors).toEqual({ couponId: [ANALYTICS.couponIdInvalid] });
    }
    expect((await inject('GET', '/api/merchant/analytics?days=90', merchant.bearer)).statusCode).toBe(200);
  });

  it('keeps the admin figures to admins', async () => {
    const shopper = (await registerAndSignInUser(market.api.baseUrl)).session;
    expect((await inject('GET', '/api/admin/analytics')).statusCode).toBe(401);
    expect((await inject('GET', '/api/admin/analytics', merchant.bearer)).statusCode).toBe(403);
    expect((await inject('GET', '/api/admin/analytics', shopper.bearer)).statusCode).toBe(403);
    expect((await inject('GET', '/api/merchant/analytics', market.admin)).statusCode).toBe(403);
    expect((await inject('GET', '/api/merchant/analytics')).statusCode).toBe(401);
  });

  it('gives the age of the oldest item waiting in each review queue', async () => {
    const waiting = await submitCoupon(market, merchant);
    await market.api.dataSource.query(
      "UPDATE coupons SET submitted_at = now() - interval '3 days' WHERE id = $1",
      [waiting],
    );
    const [{ oldest }] = await market.api.dataSource.query(
      "SELECT min(submitted_at) AS oldest FROM coupons WHERE status = 'pending'",
    );
    const { queues } = (await inject('GET', '/api/admin/analytics', market.admin)).json();
    const coupons = queues.find((queue: { queue: string }) => queue.queue === 'coupons');
    expect(coupons).toEqual({ queue: 'coupons', waiting: 1, oldestSince: new Date(oldest).toISOString() });
    expect(queues.find((queue: { queue: string }) => queue.queue === 'products')).toEqual({
      queue: 'products',
      waiting: 0,
      oldestSince: null,
    });
    const [{ payouts }] = await market.api.dataSource.query(
      "SELECT to_regclass('payouts') IS NOT NULL AS payouts",
    );
    expect(queues.some((queue: { queue: string }) => queue.queue === 'payouts')).toBe(payouts);
  });
});

describe('a merchant registered later', () => {
  it('sees thirty days of zeros', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    const { series, totals, topCoupons } = (
      await inject('GET', '/api/merchant/analytics', session.bearer)
    ).json();
    expect(series).toHaveLength(30);
    expect(totals).toEqual({ reveals: 0, clickOuts: 0, purchases: 0, sales: '0.00' });
    expect(topCoupons).toEqual({ reveals: [], clickOuts: [], purchases: [] });
  });
});
