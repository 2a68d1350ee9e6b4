import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storeCashback } from '@offers/api/read-models';
import { CASHBACK_LIMITS, CASHBACK_MESSAGES } from '@offers/api/rules';
import { registerAndSignInUser, type Session } from '../support/accounts.js';
import { approve, type Marketplace, merchantWithCoupon, startMarketplace } from '../support/marketplace.js';

/**
 * Stores' cashback: the rate a purchase earns is the one live at its click (a category's, else
 * the coupon's, else the store's, else the default), flat rates give their amount, every change
 * is in the store's history with its admin and event, and the store's settings (claim window,
 * days to confirm, cap, terms) are kept and checked.
 */
let market: Marketplace;
let shopper: Session;
let store: { merchant: Session; couponId: number; secret: string };

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });
const admin = (method: string, url: string, payload?: unknown) => inject(method, url, market.admin, payload);

async function aStore() {
  const { merchant, couponId } = await merchantWithCoupon(market);
  expect((await approve(market, couponId)).statusCode).toBe(200);
  const secret = (await inject('GET', '/api/merchant/postback-secret', merchant.bearer)).json()
    .secret as string;
  return { merchant, couponId, secret };
}

beforeAll(async () => {
  market = await startMarketplace('cashback rates');
  shopper = (await registerAndSignInUser(market.api.baseUrl)).session;
  store = await aStore();
});

afterAll(async () => {
  await market?.close();
});

let addresses = 0;
async function clickOut(couponId = store.couponId) {
  addresses += 1;
  const answer = await inject('GET', `/api/out/${couponId}`, {
    'x-forwarded-for': `10.77.0.${addresses}`,
    ...shopper.bearer,
  });
  expect(answer.statusCode).toBe(302);
  return new URL(String(answer.headers.location)).searchParams.get('subid')!;
}

let orders = 0;
function postback(clickId: string, overrides: Record<string, unknown> = {}, secret = store.secret) {
  orders += 1;
  const raw = JSON.stringify({
    purchaseReference: `RATE-${orders}`,
    clickId,
    purchaseType: 'online',
    purchaseAmount: '1000.00',
    ...overrides,
  });
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

const setStore = (storeId: number, body: Record<string, unknown>) =>
  admin('PUT', `/api/admin/cashback-rates/${storeId}`, body);

describe('the rate of a purchase', () => {
  it('is the one live at its click, not the one when the purchase is reported', async () => {
    expect((await setStore(store.merchant.id, { base: { percent: '10' } })).statusCode).toBe(200);
    const before = await clickOut();
    expect((await setStore(store.merchant.id, { base: { percent: '4' } })).statusCode).toBe(200);
    const after = await clickOut();

    const early = await postback(before);
    const late = await postback(after);

    expect(early.statusCode).toBe(201);
    expect(early.json()).toMatchObject({ ratePercent: '10.00', cashback: '100.00', rateRupees: null });
    expect(late.json()).toMatchObject({ ratePercent: '4.00', cashback: '40.00' });
  });

  it('is the category’s rate the postback names, else the coupon’s own, else the store’s', async () => {
    const saved = await setStore(store.merchant.id, {
      base: { percent: '4' },
      categories: [
        { name: 'Skin Care', rate: { percent: '7' } },
        { name: 'Hair Care', rate: { rupees: '40' } },
      ],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      upTo: { percent: '7.00' },
      base: { percent: '4.00' },
      categories: [
        { name: 'Hair Care', rate: { rupees: '40.00' } },
        { name: 'Skin Care', rate: { percent: '7.00' } },
      ],
    });
    const coupon = await admin('PUT', `/api/admin/coupon-cashback-rates/${store.couponId}`, {
      rate: { percent: '12' },
    });
    expect(coupon.statusCode).toBe(200);
    expect(coupon.json()).toEqual({
      id: store.couponId,
      storeId: store.merchant.id,
      rate: { percent: '12.00' },
    });

    const click = await clickOut();
    // Matched whatever its case and spacing.
    expect((await postback(click, { category: ' skin  CARE ' })).json()).toMatchObject({
      ratePercent: '7.00',
      cashback: '70.00',
    });
    // A flat rate is its amount, whatever the purchase.
    expect((await postback(click, { category: 'Hair Care', purchaseAmount: '250' })).json()).toMatchObject({
      ratePercent: null,
      rateRupees: '40.00',
      cashback: '40.00',
    });
    // A category the store has no rate for, or none: the coupon's own rate.
    expect((await postback(click, { category: 'Makeup' })).json()).toMatchObject({ ratePercent: '12.00' });
    expect((await postback(click)).json()).toMatchObject({ cashback: '120.00' });

    await admin('PUT', `/api/admin/coupon-cashback-rates/${store.couponId}`, { rate: null });
    // The click was made while the coupon's rate was in force: it keeps it.
    expect((await postback(click)).json()).toMatchObject({ ratePercent: '12.00' });
    expect((await postback(await clickOut())).json()).toMatchObject({ ratePercent: '4.00' });
  });

  it('of a store without a rate of its own is the site’s default', async () => {
    const other = await aStore();
    const answer = await postback(await clickOut(other.couponId), {}, other.secret);
    expect(answer.json()).toMatchObject({
      ratePercent: market.test.environment.CASHBACK_DEFAULT_RATE_PERCENT.concat('.00'),
    });
  });

  it('above the store’s cap is recorded for an admin’s review', async () => {
    await setStore(store.merchant.id, { capRupees: '50', categories: [] });
    const click = await clickOut();
    expect((await postback(click, { purchaseAmount: '1000' })).json()).toMatchObject({
      cashback: '40.00',
      overCap: false,
    });
    expect((await postback(click, { purchaseAmount: '2000' })).json()).toMatchObject({
      cashback: '80.00',
      overCap: true,
    });
    await setStore(store.merchant.id, { capRupees: null });
  });
});

describe('a store’s cashback', () => {
  it('keeps its history: who changed what, when, one event each', async () => {
    const other = await aStore();
    const id = other.merchant.id;
    await setStore(id, { base: { percent: '5' }, note: 'Launch rate' });
    await setStore(id, {
      base: { rupees: '75' },
      categories: [{ name: 'Makeup', rate: { percent: '9.5' } }],
      terms: { en: 'Not on gift cards.', hi: 'गिफ्ट कार्ड पर नहीं।', te: '' },
      claimWindowDays: 45,
    });
    // The same again changes nothing and writes nothing.
    await setStore(id, { base: { rupees: '75' }, claimWindowDays: 45 });

    const history = await admin(
      'GET',
      `/api/admin/cashback-changes?filter=${encodeURIComponent(JSON.stringify({ storeId: id }))}`,
    );
    expect(history.statusCode).toBe(200);
    expect(history.headers['content-range']).toBe('cashback-changes 0-3/4');
    const entries = history.json();
    expect(entries.map((entry: { scope: string }) => entry.scope).sort()).toEqual([
      'category',
      'store',
      'store',
      'terms',
    ]);
    expect(entries.at(-1)).toMatchObject({
      storeId: id,
      scope: 'store',
      rate: { percent: '5.00' },
      changes: { rate: { from: null, to: { percent: '5.00' } } },
      origin: 'admin',
      adminName: 'admin',
      note: 'Launch rate',
    });
    expect(entries.find((entry: { scope: string }) => entry.scope === 'terms')).toMatchObject({
      changes: {
        terms: {
          from: { en: '', hi: '', te: '' },
          to: { en: 'Not on gift cards.', hi: 'गिफ्ट कार्ड पर नहीं।', te: '' },
        },
        claimWindowDays: { from: 30, to: 45 },
      },
    });
    expect(entries[0].changedAt >= entries.at(-1).changedAt).toBe(true);
    const events = await market.api.dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'CashbackChanged' AND aggregate_id = $1 ORDER BY position",
      [String(id)],
    );
    expect(events.map((event: { payload: { changeId: number } }) => event.payload.changeId).sort()).toEqual(
      entries.map((entry: { id: number }) => entry.id).sort(),
    );
  });

  it('has a claim window per store, 30 days unless set, from 1 to 90', async () => {
    const other = await aStore();
    const [fresh] = (
      await storeCashback(market.api.dataSource, [other.merchant.id], market.test.environment)
    ).values();
    expect(fresh).toMatchObject({
      claimWindowDays: CASHBACK_LIMITS.claimWindowDays.default,
      confirmDays: CASHBACK_LIMITS.confirmDays.default,
      baseIsDefault: true,
      capRupees: null,
      terms: { en: '', hi: '', te: '' },
    });
    expect(
      (await setStore(other.merchant.id, { claimWindowDays: 90, confirmDays: 45 })).json(),
    ).toMatchObject({
      claimWindowDays: 90,
      confirmDays: 45,
    });
    for (const days of [0, 91, '30.5', 'soon', null]) {
      const refused = await setStore(other.merchant.id, { claimWindowDays: days });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors.claimWindowDays).toBeDefined();
    }
    const answers = await storeCashback(
      market.api.dataSource,
      [other.merchant.id, store.merchant.id],
      market.test.environment,
    );
    expect(answers.get(other.merchant.id)?.claimWindowDays).toBe(90);
    // A store that never set its cashback reads the defaults.
    expect(answers.get(store.merchant.id)?.claimWindowDays).toBe(30);
    expect(answers.size).toBe(2);
  });

  it('refuses malformed rates, categories and texts with 400 and changes nothing', async () => {
    const id = store.merchant.id;
    const before = (await admin('GET', `/api/admin/cashback-rates/${id}`)).json();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ base: { percent: '101' } }, 'base', CASHBACK_MESSAGES.rate],
      [{ base: { percent: '7', rupees: '1' } }, 'base', CASHBACK_MESSAGES.rate],
      [{ base: 7 }, 'base', CASHBACK_MESSAGES.rate],
      [{ categories: [{ name: '', rate: { percent: '1' } }] }, 'categories', CASHBACK_MESSAGES.categories],
      [{ categories: 'Skin Care' }, 'categories', CASHBACK_MESSAGES.categories],
      [{ terms: { en: 'x'.repeat(2001) } }, 'terms', CASHBACK_MESSAGES.texts],
      [{ terms: { fr: 'Bonjour' } }, 'terms', CASHBACK_MESSAGES.texts],
      [{ capRupees: '0' }, 'capRupees', CASHBACK_MESSAGES.capRupees],
    ];
    for (const [body, field, message] of cases) {
      const answer = await setStore(id, body);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().errors[field]).toEqual([message]);
    }
    const twice = await setStore(id, {
      categories: [
        { name: 'Makeup', rate: { percent: '1' } },
        { name: 'makeup', rate: { percent: '2' } },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe(CASHBACK_MESSAGES.categoryTwice('makeup'));
    expect((await admin('PUT', '/api/admin/cashback-rates/999999', { base: null })).statusCode).toBe(404);
    expect((await admin('PUT', '/api/admin/coupon-cashback-rates/999999', { rate: null })).statusCode).toBe(
      404,
    );
    expect((await admin('GET', `/api/admin/cashback-rates/${id}`)).json()).toEqual(before);
  });

  it('is for admins only', async () => {
    for (const headers of [{}, shopper.bearer, store.merchant.bearer]) {
      const answer = await inject('PUT', `/api/admin/cashback-rates/${store.merchant.id}`, headers, {
        base: { percent: '99' },
      });
      expect([401, 403]).toContain(answer.statusCode);
    }
  });
});
