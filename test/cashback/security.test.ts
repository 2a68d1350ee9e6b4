import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { balanceOf } from '@offers/api/read-models';
import { POSTBACK, REFERRAL_BONUS } from '@offers/api/rules';
import { registerAndSignInMerchant, registerAndSignInUser, type Session } from '../support/accounts.js';
import { approve, type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';
import { type CashbackShop, cashbackShop } from '../support/payouts.js';

/**
 * The rules of the security review: a referral bonus stays pending until the purchase that earned
 * it is confirmed, goes when that purchase is cancelled, and a purchase whose bonus its referrer
 * already has cannot be cancelled (no balance below zero); a store that is hidden or not
 * confirmed reports no purchase (403, nothing recorded).
 */
let market: Marketplace;
let shop: CashbackShop;

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });
const admin = (method: string, url: string, payload?: unknown) => inject(method, url, market.admin, payload);

beforeAll(async () => {
  // A payout as small as the bonus, so a referrer can withdraw it.
  market = await startMarketplace('cashback security', { settings: { PAYOUT_MIN_RUPEES: '50' } });
  shop = await cashbackShop(market);
});

afterAll(async () => {
  await market?.close();
});

/** A referrer and a shopper it referred. */
async function referredPair() {
  const referrer = (await registerAndSignInUser(market.api.baseUrl)).session;
  const code = (await inject('GET', '/api/me/referral', referrer.bearer)).json().code;
  const shopper = (await registerAndSignInUser(market.api.baseUrl, { referredBy: code })).session;
  return { referrer, shopper };
}

let orders = 0;
function signed(body: Record<string, unknown>, secret: string) {
  const raw = JSON.stringify(body);
  return inject(
    'POST',
    '/api/postbacks/purchases',
    {
      'content-type': 'application/json',
      'x-signature': `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`,
    },
    raw,
  );
}

let addresses = 0;
/**
 * A purchase the store reports with the shopper's click-out, so it is the shopper's cashback at
 * once (reported with only a referral code, it would wait for an admin's review).
 */
async function purchase(shopper: Session, rupees: string) {
  orders += 1;
  addresses += 1;
  const click = await inject('GET', `/api/out/${shop.couponId}`, {
    'x-forwarded-for': `10.79.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`,
    ...shopper.bearer,
  });
  expect(click.statusCode).toBe(302);
  const answer = await signed(
    {
      purchaseReference: `SEC-${orders}`,
      clickId: new URL(String(click.headers.location)).searchParams.get('subid'),
      purchaseType: 'online',
      purchaseAmount: rupees,
    },
    shop.secret,
  );
  expect(answer.statusCode).toBe(201);
  return answer.json().id as number;
}

const act = (earningId: number, action: 'confirm' | 'cancel' | 'pay') =>
  admin('POST', `/api/admin/cashbacks/${earningId}/${action}`);

async function bonusOf(referredUserId: number) {
  return market.api.dataSource.query(
    `SELECT id, state, source_earning_id AS "purchaseId", user_id AS "referrerId", amount_paise AS "amountPaise"
     FROM earnings WHERE kind = 'referral' AND referred_user_id = $1 ORDER BY id`,
    [referredUserId],
  );
}

const stateOf = async (earningId: number) =>
  (await market.api.dataSource.query('SELECT state FROM earnings WHERE id = $1', [earningId]))[0].state;

/** Every account's balance: what it may still withdraw, never below zero. */
async function lowestBalance() {
  const users: Array<{ id: number }> = await market.api.dataSource.query('SELECT id FROM users');
  const balances = await Promise.all(users.map((user) => balanceOf(market.api.dataSource, user.id)));
  return Math.min(...balances.map((balance) => balance.availablePaise));
}

describe('a referral bonus', () => {
  it('is pending from the purchase’s tracking until that purchase is confirmed', async () => {
    const { referrer, shopper } = await referredPair();
    const purchaseId = await purchase(shopper, '600');

    const [bonus] = await bonusOf(shopper.id);
    expect(bonus).toEqual({
      id: expect.any(Number),
      state: 'pending',
      purchaseId,
      referrerId: referrer.id,
      amountPaise: '10000',
    });
    const view = (await inject('GET', '/api/me/earnings', referrer.bearer)).json();
    expect(view.totals).toMatchObject({ pending: '100.00', confirmed: '0.00' });
    expect((await balanceOf(market.api.dataSource, referrer.id)).availablePaise).toBe(0);

    const early = await act(bonus.id, 'confirm');
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(REFERRAL_BONUS.purchaseNotConfirmed);
    expect((await bonusOf(shopper.id))[0].state).toBe('pending');

    expect((await act(purchaseId, 'confirm')).statusCode).toBe(200);
    expect(await bonusOf(shopper.id)).toEqual([
      expect.objectContaining({ id: bonus.id, state: 'confirmed' }),
    ]);
    const earned = await market.api.dataSource.query(
      "SELECT type FROM outbox WHERE aggregate_id = $1 AND aggregate_type = 'Earning' ORDER BY position",
      [String(bonus.id)],
    );
    expect(earned.map((event: { type: string }) => event.type)).toEqual([
      'ReferralBonusPending',
      'ReferralRewardEarned',
    ]);
  });

  it('moves to the first purchase confirmed, and is earned once', async () => {
    const { shopper } = await referredPair();
    const first = await purchase(shopper, '700');
    const second = await purchase(shopper, '900');
    expect((await act(second, 'confirm')).statusCode).toBe(200);
    expect((await act(first, 'confirm')).statusCode).toBe(200);
    expect(await bonusOf(shopper.id)).toEqual([
      expect.objectContaining({ state: 'confirmed', purchaseId: second }),
    ]);
  });

  it('is cancelled when its purchase is cancelled, pending or confirmed, and another purchase earns it', async () => {
    const { referrer, shopper } = await referredPair();
    const pending = await purchase(shopper, '700');
    expect((await act(pending, 'cancel')).statusCode).toBe(200);
    expect(await bonusOf(shopper.id)).toEqual([
      expect.objectContaining({ state: 'cancelled', purchaseId: pending }),
    ]);

    const confirmed = await purchase(shopper, '800');
    await act(confirmed, 'confirm');
    expect((await balanceOf(market.api.dataSource, referrer.id)).availablePaise).toBe(10_000);
    expect((await act(confirmed, 'cancel')).statusCode).toBe(200);
    expect((await bonusOf(shopper.id)).map((bonus: { state: string }) => bonus.state)).toEqual([
      'cancelled',
      'cancelled',
    ]);
    expect((await balanceOf(market.api.dataSource, referrer.id)).availablePaise).toBe(0);
    // Too small to earn it: still none.
    await purchase(shopper, '499.99');
    expect(await bonusOf(shopper.id)).toHaveLength(2);
  });

  it('already in its referrer’s payout, or paid, keeps its purchase from being cancelled (409), no balance below zero', async () => {
    const withdrawn = await referredPair();
    const inPayout = await purchase(withdrawn.shopper, '500');
    await act(inPayout, 'confirm');
    const requested = await inject('POST', '/api/me/payouts', withdrawn.referrer.bearer, {
      amount: '100',
      upiId: 'referrer@okaxis',
    });
    expect(requested.statusCode).toBe(201);

    const refused = await act(inPayout, 'cancel');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(REFERRAL_BONUS.bonusWithdrawn);
    expect(await stateOf(inPayout)).toBe('confirmed');
    expect((await bonusOf(withdrawn.shopper.id))[0].state).toBe('confirmed');

    const paid = await referredPair();
    const paidPurchase = await purchase(paid.shopper, '500');
    await act(paidPurchase, 'confirm');
    const [bonus] = await bonusOf(paid.shopper.id);
    expect((await act(bonus.id, 'pay')).statusCode).toBe(200);
    const refusedPaid = await act(paidPurchase, 'cancel');
    expect(refusedPaid.statusCode).toBe(409);
    expect(refusedPaid.json().message).toBe(REFERRAL_BONUS.bonusPaid);
    expect(await stateOf(paidPurchase)).toBe('confirmed');

    expect(await lowestBalance()).toBeGreaterThanOrEqual(0);
  });
});

describe('a postback for a store', () => {
  const earningsCount = async () =>
    (await market.api.dataSource.query('SELECT count(*)::int AS n FROM earnings'))[0].n as number;
  const outboxCount = async () =>
    (await market.api.dataSource.query('SELECT count(*)::int AS n FROM outbox'))[0].n as number;

  let shopper: Session;
  let shopperCode: string;
  beforeAll(async () => {
    shopper = (await registerAndSignInUser(market.api.baseUrl)).session;
    shopperCode = (await inject('GET', '/api/me/referral', shopper.bearer)).json().code;
  });

  it('hidden by an admin is refused with 403 and records nothing, by click or by referral code', async () => {
    const hidden = await cashbackShop(market);
    const click = await inject('GET', `/api/out/${hidden.couponId}`, {
      'x-forwarded-for': '10.78.0.1',
      ...shopper.bearer,
    });
    const clickId = new URL(String(click.headers.location)).searchParams.get('subid');
    expect((await admin('PUT', `/api/admin/stores/${hidden.merchant.id}`, { hidden: true })).statusCode).toBe(
      200,
    );
    const [earnings, events] = [await earningsCount(), await outboxCount()];

    for (const body of [{ clickId }, { couponId: hidden.couponId, referralCode: shopperCode }]) {
      const answer = await signed(
        { purchaseReference: 'HIDDEN-1', purchaseType: 'online', purchaseAmount: '900', ...body },
        hidden.secret,
      );
      expect(answer.statusCode).toBe(403);
      expect(answer.json().message).toBe(POSTBACK.merchantHidden);
    }
    // Without the store's signature, nothing is said of the store.
    const unsigned = await signed(
      { purchaseReference: 'HIDDEN-2', clickId, purchaseType: 'online', purchaseAmount: '900' },
      'not-the-secret',
    );
    expect(unsigned.statusCode).toBe(401);
    expect([await earningsCount(), await outboxCount()]).toEqual([earnings, events]);
  });

  it('whose account is not confirmed is refused with 403 and records nothing', async () => {
    const { session: merchant } = await registerAndSignInMerchant(
      market.api.baseUrl,
      {},
      { confirmEmail: false },
    );
    const couponId = await submitCoupon(market, merchant);
    await approve(market, couponId);
    const secret = (await inject('GET', '/api/merchant/postback-secret', merchant.bearer)).json().secret;
    const [earnings, events] = [await earningsCount(), await outboxCount()];

    const answer = await signed(
      {
        purchaseReference: 'UNCONFIRMED-1',
        couponId,
        referralCode: shopperCode,
        purchaseType: 'online',
        purchaseAmount: '900',
      },
      secret,
    );
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe(POSTBACK.merchantUnconfirmed);
    expect([await earningsCount(), await outboxCount()]).toEqual([earnings, events]);
  });
});
