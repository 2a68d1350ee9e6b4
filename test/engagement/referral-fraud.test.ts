import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { POSTBACK } from '@offers/api/rules';
import { registerAndSignInUser, type Session } from '../support/accounts.js';
import { approveHeldPurchase } from '../support/claims.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { approve, merchantWithCoupon, submitCoupon, untilEventsProcessed } from '../support/marketplace.js';

/**
 * A merchant cannot turn its own postbacks into referral bonuses: purchases count only on its
 * coupons while they were live, above ₹0; the bonus needs REFERRAL_MIN_PURCHASE_RUPEES and never
 * goes to the coupon's own merchant.
 */
let market: EngagementMarket;
let merchant: Session;
let liveCouponId: number;
let secret: string;

beforeAll(async () => {
  market = await startEngagementMarket('referral fraud');
  ({ merchant, couponId: liveCouponId } = await merchantWithCoupon(market));
  await approve(market, liveCouponId);
  secret = (await inject('GET', '/api/merchant/postback-secret', merchant.bearer)).json().secret;
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

let reference = 0;
function postback(overrides: Record<string, unknown>, key = secret) {
  reference += 1;
  const raw = JSON.stringify({
    purchaseReference: `ORD-F-${reference}`,
    purchaseType: 'online',
    purchaseAmount: '1000.00',
    ...overrides,
  });
  const signature = `sha256=${createHmac('sha256', key).update(raw).digest('hex')}`;
  return inject(
    'POST',
    '/api/postbacks/purchases',
    { 'content-type': 'application/json', 'x-signature': signature },
    raw,
  );
}

/** A shopper the given account referred: its id, and its own code (what postbacks name). */
async function referredShopper(referrerCode: string) {
  const { session } = await registerAndSignInUser(market.api.baseUrl, { referredBy: referrerCode });
  const code = (await inject('GET', '/api/me/referral', session.bearer)).json().code as string;
  return { id: session.id, code };
}

const bonuses = () =>
  market.api.dataSource.query(
    "SELECT beneficiary_merchant_id, user_id FROM earnings WHERE kind = 'referral'",
  );

/**
 * An admin credits the purchase (reported by referral code without a click, it waits in the
 * missing-cashback queue) and confirms it: the bonus rules hold even for a purchase an admin let through.
 */
async function confirm(shopperId: number, earningId: number) {
  await approveHeldPurchase(market, shopperId, earningId);
  const answer = await inject('POST', `/api/admin/cashbacks/${earningId}/confirm`, market.admin);
  expect(answer.statusCode).toBe(200);
  await untilEventsProcessed(market);
}

describe('postbacks', () => {
  it('refuse a pending, withdrawn or unknown coupon and an amount of zero', async () => {
    const merchantCode = (await inject('GET', '/api/merchant/referral', merchant.bearer)).json().code;
    const shopper = (await referredShopper(merchantCode)).code;
    const pending = await submitCoupon(market, merchant, { title: 'Never approved' });
    const withdrawn = await submitCoupon(market, merchant, { title: 'Withdrawn soon' });
    await inject('DELETE', `/api/merchant/coupons/${withdrawn}`, merchant.bearer);

    const answers = {
      pending: await postback({ couponId: pending, referralCode: shopper }),
      withdrawn: await postback({ couponId: withdrawn, referralCode: shopper }),
      zero: await postback({ couponId: liveCouponId, referralCode: shopper, purchaseAmount: '0' }),
      zeroPaise: await postback({ couponId: liveCouponId, referralCode: shopper, purchaseAmount: '0.00' }),
      beforeApproval: await postback({
        couponId: liveCouponId,
        referralCode: shopper,
        purchasedAt: '2020-01-01T00:00:00Z',
      }),
      future: await postback({
        couponId: liveCouponId,
        referralCode: shopper,
        purchasedAt: new Date(Date.now() + 86_400_000).toISOString(),
      }),
    };

    expect(answers.pending.json()).toMatchObject({
      statusCode: 400,
      errors: { couponId: [POSTBACK.couponNotLive] },
    });
    expect(answers.withdrawn.json()).toMatchObject({
      statusCode: 400,
      errors: { couponId: [POSTBACK.couponNotLive] },
    });
    expect(answers.zero.json()).toMatchObject({
      statusCode: 400,
      errors: { purchaseAmount: [POSTBACK.zeroAmount] },
    });
    expect(answers.zeroPaise.statusCode).toBe(400);
    expect(answers.beforeApproval.json().errors).toEqual({ couponId: [POSTBACK.couponNotLive] });
    expect(answers.future.json().errors).toEqual({ purchasedAt: [POSTBACK.purchasedAt] });
    const [{ n }] = await market.api.dataSource.query(
      "SELECT count(*)::int AS n FROM earnings WHERE purchase_reference LIKE 'ORD-F-%'",
    );
    expect(n).toBe(0);
  });

  it('accept a purchase made while the coupon was live, even if it was withdrawn since', async () => {
    const { merchant: other, couponId } = await merchantWithCoupon(market);
    await approve(market, couponId);
    const otherSecret = (await inject('GET', '/api/merchant/postback-secret', other.bearer)).json().secret;
    const purchasedAt = new Date().toISOString();
    await inject('DELETE', `/api/merchant/coupons/${couponId}`, other.bearer);
    const shopper = (await referredShopper('OFFERS')).code;

    const answer = await postback({ couponId, referralCode: shopper, purchasedAt }, otherSecret);

    expect(answer.statusCode).toBe(201);
  });
});

describe('referral bonus', () => {
  it('is not paid to the coupon’s own merchant for a shopper it referred', async () => {
    const merchantCode = (await inject('GET', '/api/merchant/referral', merchant.bearer)).json().code;
    const shopper = await referredShopper(merchantCode);

    const recorded = await postback({
      couponId: liveCouponId,
      referralCode: shopper.code,
      purchaseAmount: '5000.00',
    });
    await confirm(shopper.id, recorded.json().id);

    expect(recorded.statusCode).toBe(201);
    expect(await bonuses()).toEqual([]);
  });

  it('needs a confirmed purchase of at least REFERRAL_MIN_PURCHASE_RUPEES', async () => {
    expect(market.test.environment.REFERRAL_MIN_PURCHASE_RUPEES).toBe('500');
    const referrer = (await registerAndSignInUser(market.api.baseUrl)).session;
    const referrerCode = (await inject('GET', '/api/me/referral', referrer.bearer)).json().code;
    const shopper = await referredShopper(referrerCode);

    const small = await postback({
      couponId: liveCouponId,
      referralCode: shopper.code,
      purchaseAmount: '499.99',
    });
    await confirm(shopper.id, small.json().id);
    expect(await bonuses()).toEqual([]);

    const enough = await postback({
      couponId: liveCouponId,
      referralCode: shopper.code,
      purchaseAmount: '500.00',
    });
    await confirm(shopper.id, enough.json().id);
    expect(await bonuses()).toEqual([{ beneficiary_merchant_id: null, user_id: referrer.id }]);
  });
});
