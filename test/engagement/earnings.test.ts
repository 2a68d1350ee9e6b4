import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EARNINGS, POSTBACK } from '@offers/api/rules';
import { registerAndSignInMerchant, registerAndSignInUser, type Session } from '../support/accounts.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { approve, merchantWithCoupon } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

let market: EngagementMarket;
let merchant: Session;
let couponId: number;
let secret: string;
let referrer: Session;
let shopper: Session;
let shopperCode: string;

beforeAll(async () => {
  market = await startEngagementMarket('engagement earnings');
  ({ merchant, couponId } = await merchantWithCoupon(market));
  await approve(market, couponId);
  secret = (await inject('GET', '/api/merchant/postback-secret', merchant.bearer)).json().secret;
  referrer = (await registerAndSignInUser(market.api.baseUrl)).session;
  const referrerCode = (await inject('GET', '/api/me/referral', referrer.bearer)).json().code;
  shopper = (await registerAndSignInUser(market.api.baseUrl, { referredBy: referrerCode })).session;
  shopperCode = (await inject('GET', '/api/me/referral', shopper.bearer)).json().code;
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

let reference = 0;
function purchase(overrides: Record<string, unknown> = {}) {
  reference += 1;
  return {
    purchaseReference: `ORD-${Date.now()}-${reference}`,
    couponId,
    referralCode: shopperCode,
    purchaseType: 'online',
    purchaseAmount: '1299.50',
    ...overrides,
  };
}

let addresses = 0;
/** The buyer's click-out on the coupon: the click a store's postback names. */
async function clickOut(buyer: Session = shopper, coupon = couponId): Promise<string> {
  addresses += 1;
  const answer = await inject('GET', `/api/out/${coupon}`, {
    ...buyer.bearer,
    'x-forwarded-for': `10.66.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`,
  });
  expect(answer.statusCode).toBe(302);
  return new URL(String(answer.headers.location)).searchParams.get('subid')!;
}

/**
 * A purchase the store reports with the buyer's click: it is the buyer's cashback at once (one
 * reported with only a referral code waits for an admin in the missing-cashback queue).
 */
async function clickedPurchase(overrides: Record<string, unknown> = {}, buyer = shopper, coupon = couponId) {
  return purchase({
    ...overrides,
    couponId: coupon,
    referralCode: undefined,
    clickId: await clickOut(buyer, coupon),
  });
}

/** Posts the body as these exact bytes, signed with the secret (or with the given header). */
function postback(body: unknown, key = secret, signature?: string) {
  const raw = JSON.stringify(body);
  const header = signature ?? `sha256=${createHmac('sha256', key).update(raw).digest('hex')}`;
  return inject(
    'POST',
    '/api/postbacks/purchases',
    { 'content-type': 'application/json', 'x-signature': header },
    raw,
  );
}

const earningsCount = async () =>
  (await market.api.dataSource.query('SELECT count(*)::int AS n FROM earnings'))[0].n as number;

describe('postbacks', () => {
  it('refuses a missing, wrong or other merchant’s signature and records nothing', async () => {
    const body = purchase();
    const other = await registerAndSignInMerchant(market.api.baseUrl);
    const otherSecret = (await inject('GET', '/api/merchant/postback-secret', other.session.bearer)).json()
      .secret;
    const answers = [
      await inject('POST', '/api/postbacks/purchases', {}, body),
      await postback(body, secret, 'sha256=00'),
      await postback(body, otherSecret),
      await postback({ ...body, couponId: 999_999 }),
      // Signed, then changed on the way.
      await inject(
        'POST',
        '/api/postbacks/purchases',
        {
          'content-type': 'application/json',
          'x-signature': `sha256=${createHmac('sha256', secret).update(JSON.stringify(body)).digest('hex')}`,
        },
        JSON.stringify({ ...body, purchaseAmount: '99999.00' }),
      ),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json().message).toBe(POSTBACK.badSignature);
    }
    expect(await earningsCount()).toBe(0);
  });

  it('records a purchase once, with cashback at the default rate, in paise', async () => {
    const body = purchase({ purchaseAmount: 1299.5 });
    const first = await postback(body);
    const again = await postback(body);

    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      kind: 'cashback',
      userId: shopper.id,
      couponId,
      purchaseAmount: '1299.50',
      ratePercent: '5.00',
      cashback: '64.98', // 5 % of ₹1,299.50 = ₹64.975, rounded to the paisa
      state: 'pending',
      // Reported without a click: it waits for an admin before it counts for the shopper.
      heldForReview: true,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    const [row] = await market.api.dataSource.query(
      'SELECT purchase_amount_paise, amount_paise FROM earnings WHERE id = $1',
      [first.json().id],
    );
    expect(row).toEqual({ purchase_amount_paise: '129950', amount_paise: '6498' });
  });

  it('checks the body once the signature holds', async () => {
    const bad = await postback(purchase({ purchaseAmount: '12.345', referralCode: '' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      purchaseAmount: [POSTBACK.purchaseAmount],
      referralCode: [POSTBACK.referralCode],
    });
    const unknown = await postback(purchase({ referralCode: 'NOSUCHCD' }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual({ referralCode: [POSTBACK.unknownShopper] });
  });

  it('uses the coupon’s rate, else the store’s', async () => {
    const storeRate = await inject('PUT', `/api/admin/cashback-rates/${merchant.id}`, market.admin, {
      base: { percent: '10' },
    });
    expect(storeRate.statusCode).toBe(200);
    expect((await postback(await clickedPurchase({ purchaseAmount: '200' }))).json()).toMatchObject({
      cashback: '20.00',
    });
    await inject('PUT', `/api/admin/coupon-cashback-rates/${couponId}`, market.admin, {
      rate: { percent: '2.5' },
    });
    expect((await postback(await clickedPurchase({ purchaseAmount: '200' }))).json()).toMatchObject({
      cashback: '5.00',
    });
    await inject('PUT', `/api/admin/coupon-cashback-rates/${couponId}`, market.admin, { rate: null });
    await inject('PUT', `/api/admin/cashback-rates/${merchant.id}`, market.admin, { base: null });
  });

  it('stops accepting the old secret once the merchant rotates it', async () => {
    const old = secret;
    const rotated = await inject('POST', '/api/merchant/postback-secret/rotate', merchant.bearer);
    expect(rotated.statusCode).toBe(200);
    secret = rotated.json().secret;
    expect(secret).not.toBe(old);
    expect((await postback(purchase(), old)).statusCode).toBe(401);
    expect((await postback(purchase())).statusCode).toBe(201);
  });
});

describe('cashback states and totals', () => {
  it('moves pending → confirmed → paid, or to cancelled, and refuses anything else with 409', async () => {
    const paidId = (await postback(await clickedPurchase({ purchaseAmount: '100' }))).json().id;
    const cancelledId = (await postback(await clickedPurchase({ purchaseAmount: '300' }))).json().id;
    const act = (id: number, action: string) =>
      inject('POST', `/api/admin/cashbacks/${id}/${action}`, market.admin);

    expect((await act(paidId, 'pay')).statusCode).toBe(409);
    expect((await act(paidId, 'confirm')).json()).toMatchObject({ state: 'confirmed' });
    const twice = await act(paidId, 'confirm');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(EARNINGS.illegalTransition('confirmed', 'confirmed'));
    expect((await act(paidId, 'pay')).json()).toMatchObject({ state: 'paid', paidAt: expect.any(String) });
    expect((await act(paidId, 'cancel')).statusCode).toBe(409);
    expect((await act(cancelledId, 'cancel')).json()).toMatchObject({ state: 'cancelled' });
    expect((await act(cancelledId, 'confirm')).statusCode).toBe(409);
    expect((await act(999_999, 'confirm')).statusCode).toBe(404);

    const events = await market.api.dataSource.query(
      'SELECT type FROM outbox WHERE aggregate_id = $1 ORDER BY position',
      [String(paidId)],
    );
    expect(events.map((event: { type: string }) => event.type)).toEqual([
      'PurchaseRecorded',
      'CashbackConfirmed',
      'EarningPaid',
    ]);
  });

  it('shows the shopper’s purchase history and totals by state in rupees, a page at a time', async () => {
    const mine = await inject('GET', '/api/me/earnings?perPage=2', shopper.bearer);
    expect(mine.statusCode).toBe(200);
    const { purchaseHistory, totals, total } = mine.json();
    const rows: Array<{ state: string; amount: string }> = await market.api.dataSource.query(
      // Purchases waiting in the missing-cashback queue are not the shopper's cashback yet.
      'SELECT state, sum(amount_paise)::text AS amount FROM earnings WHERE user_id = $1 AND NOT held_for_review GROUP BY state',
      [shopper.id],
    );
    const expected = (state: string) => {
      const paise = Number(rows.find((row) => row.state === state)?.amount ?? 0);
      return `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;
    };
    expect(totals).toEqual({
      pending: expected('pending'),
      confirmed: expected('confirmed'),
      paid: expected('paid'),
      cancelled: expected('cancelled'),
    });
    expect(totals.paid).toBe('5.00');
    expect(purchaseHistory).toHaveLength(2);
    expect(total).toBeGreaterThan(2);
    expect(purchaseHistory[0]).toEqual({
      id: expect.any(Number),
      type: 'cashback',
      couponId,
      merchantId: merchant.id,
      purchaseType: 'online',
      purchaseAmount: expect.stringMatching(/^\d+\.\d\d$/),
      cashback: expect.stringMatching(/^\d+\.\d\d$/),
      state: expect.any(String),
      date: expect.any(String),
    });
    const page2 = (await inject('GET', '/api/me/earnings?perPage=2&page=2', shopper.bearer)).json();
    expect(page2.purchaseHistory[0].id).not.toBe(purchaseHistory[0].id);
  });
});

describe('referral bonus', () => {
  const referralRows = () =>
    market.api.dataSource.query(
      "SELECT user_id, beneficiary_merchant_id, amount_paise FROM earnings WHERE kind = 'referral'",
    );

  it('pays the referrer once, whatever the concurrency', async () => {
    const ids = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push((await postback(await clickedPurchase({ purchaseAmount: '500' }))).json().id);
    }
    const confirmations = await Promise.all(
      ids.map((id) => inject('POST', `/api/admin/cashbacks/${id}/confirm`, market.admin)),
    );
    expect(confirmations.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(await referralRows()).toEqual([
      { user_id: referrer.id, beneficiary_merchant_id: null, amount_paise: '10000' },
    ]);
    const referrersView = (await inject('GET', '/api/me/earnings', referrer.bearer)).json();
    expect(referrersView.purchaseHistory).toEqual([
      expect.objectContaining({
        type: 'referral',
        purchaseType: 'referral',
        cashback: '100.00',
        state: 'confirmed',
      }),
    ]);
    expect(referrersView.totals).toMatchObject({ confirmed: '100.00', pending: '0.00' });
    expect(
      (
        await market.api.dataSource.query(
          "SELECT count(*)::int AS n FROM outbox WHERE type = 'ReferralRewardEarned'",
        )
      )[0].n,
    ).toBe(1);
  });

  it('pays a referring merchant, and nobody for a shopper who came without a referrer', async () => {
    const merchantCode = (await inject('GET', '/api/merchant/referral', merchant.bearer)).json().code;
    const referred = (await registerAndSignInUser(market.api.baseUrl, { referredBy: merchantCode })).session;
    const walkIn = (await registerAndSignInUser(market.api.baseUrl)).session;
    // The shoppers buy with another merchant's coupon: a merchant earns no bonus on its own coupons.
    const shop = await merchantWithCoupon(market);
    await approve(market, shop.couponId);
    const shopSecret = (await inject('GET', '/api/merchant/postback-secret', shop.merchant.bearer)).json()
      .secret;
    for (const buyer of [referred, walkIn]) {
      const body = await clickedPurchase({}, buyer, shop.couponId);
      const id = (await postback(body, shopSecret)).json().id;
      await inject('POST', `/api/admin/cashbacks/${id}/confirm`, market.admin);
    }
    await eventually(async () => (await referralRows()).length === 2, 'the merchant’s bonus');
    const merchantsView = (await inject('GET', '/api/merchant/earnings', merchant.bearer)).json();
    expect(merchantsView.totals.confirmed).toBe('100.00');
    await eventually(
      async () =>
        (
          await market.api.dataSource.query(
            "SELECT 1 FROM outbox WHERE type = 'CashbackConfirmed' AND processed_at IS NULL",
          )
        ).length === 0,
      'every confirmation consumed',
    );
    expect(await referralRows()).toHaveLength(2);
  });
});
