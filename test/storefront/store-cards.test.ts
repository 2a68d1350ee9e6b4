import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { registerAndSignInMerchant } from '../support/accounts.js';
import {
  approve,
  listed,
  type Marketplace,
  startMarketplace,
  submitCoupon,
  untilEventsProcessed,
} from '../support/marketplace.js';
import {
  approveProduct,
  createCategory,
  inject,
  pngOf,
  saveStore,
  storePage,
  submitProduct,
} from '../support/storefront.js';
import { eventually } from '../support/test-environment.js';

/**
 * Every merchant with something to offer has a store page, and every coupon card names its store
 * and links to it: the listing and store-page read models, kept by the workers from the events.
 */

let market: Marketplace;

beforeAll(async () => {
  market = await startMarketplace('store_cards');
}, 60_000);

afterAll(async () => {
  await market?.close();
});

async function cardOf(couponId: number) {
  return (await listed(market)).data.find((card) => card.id === couponId);
}

async function stores() {
  return (await inject(market, 'GET', '/api/stores?perPage=100')).json() as {
    data: Array<{ merchantId: number; slug: string; storeName: string; liveCoupons: number }>;
  };
}

describe('store pages for every merchant with an offer', () => {
  it('gives a merchant with a live coupon and no saved store a default page, and its cards name and link the store', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Tulsi Herbals' });
    const merchantId = Number(session.id);
    // Nothing to offer yet: no page.
    expect((await storePage(market, merchantId)).statusCode).toBe(404);

    const couponId = await submitCoupon(market, session, { title: 'Neem face wash 25% off' });
    expect((await approve(market, couponId)).statusCode).toBe(200);
    await eventually(
      async () => (await storePage(market, merchantId)).statusCode === 200,
      'the default page',
      10_000,
    );

    const page = (await storePage(market, merchantId)).json();
    expect(page).toMatchObject({
      merchantId,
      slug: 'tulsi-herbals',
      storeName: 'Tulsi Herbals',
      logoUrl: null,
      tagline: '',
      categories: [],
      uncategorised: [],
    });
    expect((await inject(market, 'GET', '/api/stores/tulsi-herbals')).json().merchantId).toBe(merchantId);
    expect((await stores()).data).toContainEqual(
      expect.objectContaining({
        merchantId,
        slug: 'tulsi-herbals',
        storeName: 'Tulsi Herbals',
        liveCoupons: 1,
      }),
    );
    await eventually(async () => (await cardOf(couponId)) !== undefined, 'the coupon listed', 10_000);
    expect((await cardOf(couponId))?.merchant).toEqual({
      id: merchantId,
      name: 'Tulsi Herbals',
      slug: 'tulsi-herbals',
      logoUrl: null,
    });

    // The merchant saves its store: its name and logo show on the page and on every card.
    const logo = await pngOf(64, 64);
    await saveStore(market, session, {
      storeName: 'Tulsi Herbals Official',
      merchantLogo: `data:image/png;base64,${logo.toString('base64')}`,
    });
    await eventually(
      async () =>
        ((await cardOf(couponId))?.merchant as { name: string } | undefined)?.name ===
        'Tulsi Herbals Official',
      'the card to show the saved store',
      10_000,
    );
    const card = (await cardOf(couponId))!.merchant as { logoUrl: string; slug: string };
    expect(card.slug).toBe('tulsi-herbals');
    expect(card.logoUrl).toMatch(/^\/api\/media\/[0-9a-f-]{36}$/);
    // The store page is another read model, kept by its own consumer: it follows soon after.
    const saved = await eventually(async () => {
      const shown = (await storePage(market, merchantId)).json();
      return shown.storeName === 'Tulsi Herbals Official' && shown;
    }, 'the store page to show the saved store');
    expect(saved.logoUrl).toBe(card.logoUrl);
  });

  it('closes a default page when the last live coupon is withdrawn, and keeps a saved store open', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Chandan Soaps' });
    const merchantId = Number(session.id);
    const couponId = await submitCoupon(market, session);
    await approve(market, couponId);
    await eventually(
      async () => (await storePage(market, merchantId)).statusCode === 200,
      'the default page',
      10_000,
    );

    const withdrawn = await inject(market, 'DELETE', `/api/merchant/coupons/${couponId}`, session.bearer);
    expect(withdrawn.statusCode).toBe(200);
    await eventually(
      async () => (await storePage(market, merchantId)).statusCode === 404,
      'the page to close',
      10_000,
    );
    expect((await stores()).data.map((store) => store.merchantId)).not.toContain(merchantId);

    // A store the merchant saved stays open with nothing live.
    const other = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Mitti Clay' });
    await saveStore(market, other.session, { storeName: 'Mitti Clay' });
    await eventually(
      async () => (await storePage(market, Number(other.session.id))).statusCode === 200,
      'the saved store',
      10_000,
    );
  });

  it('gives a merchant with only an approved product a default page with the product', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Kumkum Crafts' });
    const merchantId = Number(session.id);
    const category = await createCategory(market, session, 'Candles');
    const productId = await submitProduct(market, session, category, { productName: 'Rose candle' });
    expect((await storePage(market, merchantId)).statusCode).toBe(404);
    await approveProduct(market, productId);
    await eventually(
      async () => (await storePage(market, merchantId)).statusCode === 200,
      'the default page',
      10_000,
    );
    const page = (await storePage(market, merchantId)).json();
    expect(page.storeName).toBe('Kumkum Crafts');
    expect(page.categories.flatMap((shelf: { products: Array<{ id: number }> }) => shelf.products)).toEqual([
      expect.objectContaining({ id: productId, productName: 'Rose candle' }),
    ]);
  });

  it('never opens a page for a merchant that has not confirmed its email', async () => {
    const { session } = await registerAndSignInMerchant(
      market.api.baseUrl,
      { brandName: 'Unconfirmed Co' },
      { confirmEmail: false },
    );
    const couponId = await submitCoupon(market, session);
    await approve(market, couponId);
    await untilEventsProcessed(market);
    expect((await storePage(market, Number(session.id))).statusCode).toBe(404);
  });
});
