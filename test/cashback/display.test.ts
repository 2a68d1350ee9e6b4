import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { registerAndSignInMerchant, type Session } from '../support/accounts.js';
import type { WebApp } from '../support/browser.js';
import {
  approve,
  type Marketplace,
  startMarketplace,
  submitCoupon,
  untilListed,
} from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';
import { serveSite } from '../support/web-public.js';

/**
 * What shoppers are shown of cashback before the click, in the public answers and the pages
 * rendered from them: a coupon card's "up to" (its own rate in place of its store's base), each
 * store's best rate in the A-Z and the search box, a store's rates, terms and days to confirm on
 * its page and in its JSON-LD; nothing where the rates give nothing; a change shown at once.
 */
let market: Marketplace;
let site: WebApp;

interface Store {
  merchant: Session;
  slug: string;
  coupons: number[];
}
/** Rates of its own: a base, two categories (one flat), terms in English and Hindi, 45 days. */
let paid: Store;
/** A base of 0 %: no cashback, but for a coupon given a rate of its own. */
let none: Store;
/** No settings: the site's default rate (5 % in the tests, as in development). */
let plain: Store;

const inject = (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  market.api.http.inject({ method, url, payload, headers });
const admin = (method: string, url: string, payload?: unknown) => inject(method, url, payload, market.admin);
const json = async (url: string) => {
  const answer = await inject('GET', url);
  expect([url, answer.statusCode]).toEqual([url, 200]);
  return answer.json();
};

async function aStore(brandName: string, coupons: number): Promise<Store> {
  const { session } = await registerAndSignInMerchant(market.api.baseUrl, { brandName });
  const ids: number[] = [];
  for (let index = 0; index < coupons; index += 1) {
    const id = await submitCoupon(market, session, { title: `${brandName} offer ${index + 1}` });
    expect((await approve(market, id)).statusCode).toBe(200);
    ids.push(id);
  }
  return { merchant: session, slug: brandName.toLowerCase().replace(/\s+/g, '-'), coupons: ids };
}

const card = async (couponId: number) =>
  ((await json('/api/coupons?perPage=100')).data as Array<{ id: number; cashback: unknown }>).find(
    (each) => each.id === couponId,
  );
const storeTile = async (storeId: number) =>
  ((await json('/api/stores?perPage=100')).data as Array<{ merchantId: number; cashback: unknown }>).find(
    (each) => each.merchantId === storeId,
  );
const page = async (path: string) => {
  const response = await fetch(`${site.url}${path}`);
  expect([path, response.status]).toEqual([path, 200]);
  return response.text();
};
/** The page's JSON-LD objects. */
const jsonLd = (html: string): Array<Record<string, unknown>> =>
  [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].flatMap((match) =>
    [JSON.parse(match[1]!)].flat(),
  );

beforeAll(async () => {
  market = await startMarketplace('cashback display');
  [paid, none, plain] = await Promise.all([
    aStore('Kesari Skin', 2),
    aStore('Nimbu Naturals', 2),
    aStore('Plain Pantry', 1),
  ]);
  const saved = await admin('PUT', `/api/admin/cashback-rates/${paid.merchant.id}`, {
    base: { percent: '4' },
    categories: [
      { name: 'Skin Care', rate: { percent: '7' } },
      { name: 'Gift Sets', rate: { rupees: '150' } },
    ],
    terms: { en: 'Cashback on full-price items only.', hi: 'केवल पूरी क़ीमत वाले सामान पर कैशबैक।', te: '' },
    exclusions: { en: 'Gift cards and taxes.', hi: '', te: '' },
    confirmDays: 45,
  });
  expect(saved.statusCode).toBe(200);
  expect(
    (await admin('PUT', `/api/admin/coupon-cashback-rates/${paid.coupons[1]}`, { rate: { percent: '12' } }))
      .statusCode,
  ).toBe(200);
  expect(
    (await admin('PUT', `/api/admin/cashback-rates/${none.merchant.id}`, { base: { percent: '0' } }))
      .statusCode,
  ).toBe(200);
  expect(
    (await admin('PUT', `/api/admin/coupon-cashback-rates/${none.coupons[0]}`, { rate: { rupees: '150' } }))
      .statusCode,
  ).toBe(200);
  for (const store of [paid, none, plain]) for (const id of store.coupons) await untilListed(market, id);
  await eventually(
    async () => (await json('/api/stores?perPage=100')).total === 3,
    'the three store pages',
    10_000,
  );
  site = await serveSite(market);
}, 120_000);

afterAll(async () => {
  await site?.close();
  await market?.close();
});

describe('coupon cards', () => {
  it('say "up to" the best of the store’s base and category rates, a coupon’s own rate in place of the base', async () => {
    // 4 % base, 7 % and ₹150 in categories: a percentage is what "up to" promises.
    expect((await card(paid.coupons[0]!))?.cashback).toEqual({ percent: '7.00' });
    // Its own 12 % replaces the store's base and is above its categories.
    expect((await card(paid.coupons[1]!))?.cashback).toEqual({ percent: '12.00' });
    // A store paying nothing says nothing, but for a coupon with a rate of its own.
    expect((await card(none.coupons[0]!))?.cashback).toEqual({ rupees: '150.00' });
    expect((await card(none.coupons[1]!))?.cashback).toBeNull();
    expect((await card(plain.coupons[0]!))?.cashback).toEqual({ percent: '5.00' });
    // The home page's top coupons are the same cards.
    const top = (await json('/api/home')).topCoupons as Array<{ id: number; cashback: unknown }>;
    expect(top.find((each) => each.id === paid.coupons[1])?.cashback).toEqual({ percent: '12.00' });
  });
});

describe('stores', () => {
  it('carry their best rate in the A-Z and in the search box’s suggestions, none when it gives nothing', async () => {
    expect((await storeTile(paid.merchant.id))?.cashback).toEqual({ percent: '7.00' });
    expect((await storeTile(none.merchant.id))?.cashback).toBeNull();
    expect((await storeTile(plain.merchant.id))?.cashback).toEqual({ percent: '5.00' });
    const suggested = await json('/api/search/suggest?q=kesari');
    expect(suggested.stores).toEqual([
      expect.objectContaining({ slug: paid.slug, cashback: { percent: '7.00' } }),
    ]);
    const nothing = await json('/api/search/suggest?q=nimbu');
    expect(nothing.stores).toEqual([expect.objectContaining({ slug: none.slug, cashback: null })]);
  });

  it('show their rates, terms and days to confirm on their page', async () => {
    expect((await json(`/api/stores/${paid.slug}`)).cashback).toEqual({
      upTo: { percent: '7.00' },
      base: { percent: '4.00' },
      categories: [
        { name: 'Skin Care', rate: { percent: '7.00' } },
        { name: 'Gift Sets', rate: { rupees: '150.00' } },
      ],
      terms: { en: 'Cashback on full-price items only.', hi: 'केवल पूरी क़ीमत वाले सामान पर कैशबैक।', te: '' },
      exclusions: { en: 'Gift cards and taxes.', hi: '', te: '' },
      confirmDays: 45,
    });
    // By merchant id too, as the older client asks.
    expect((await json(`/api/stores/${paid.merchant.id}`)).cashback.upTo).toEqual({ percent: '7.00' });
    expect((await json(`/api/stores/${none.slug}`)).cashback).toBeNull();
    expect((await json(`/api/stores/${plain.slug}`)).cashback).toMatchObject({
      upTo: { percent: '5.00' },
      base: { percent: '5.00' },
      categories: [],
      confirmDays: 60,
    });
  });
});

describe('the rendered pages', () => {
  it('show the store’s rate table, terms in the visitor’s language and its days to confirm, and its JSON-LD', async () => {
    const english = await page(`/store/${paid.slug}`);
    expect(english).toContain('Cashback at Kesari Skin');
    expect(english).toContain('Up to 7% cashback');
    expect(english).toMatch(/<th scope="row">Skin Care<\/th><td>7%<\/td>/);
    expect(english).toMatch(/<th scope="row">Gift Sets<\/th><td>₹150.00<\/td>/);
    expect(english).toMatch(/<th scope="row">Every other purchase<\/th><td>4%<\/td>/);
    expect(english).toContain('Cashback confirmed in about 45 days');
    expect(english).toContain('Cashback on full-price items only.');
    expect(english).toContain('Gift cards and taxes.');
    expect(english).toContain('How to earn it');
    // Each card of the store says its own "up to".
    expect(english).toContain('+ up to 12% cashback');
    const store = jsonLd(english).find((item) => item['@type'] === 'Store')!;
    expect((store.makesOffer as object[])[0]).toEqual({
      '@type': 'Offer',
      name: 'Up to 7% cashback',
      description:
        'Up to 7% cashback on purchases at Kesari Skin through this site, confirmed in about 45 days.',
      category: 'Cashback',
      url: `https://offers.example.in/store/${paid.slug}`,
    });

    const hindi = await page(`/hi/store/${paid.slug}`);
    expect(hindi).toContain('केवल पूरी क़ीमत वाले सामान पर कैशबैक।');
    expect(hindi).toContain('कैशबैक लगभग 45 दिनों में पक्का होता है');
    expect(hindi).toContain('7% तक कैशबैक');
    // No Telugu terms: the English ones.
    const telugu = await page(`/te/store/${paid.slug}`);
    expect(telugu).toContain('Cashback on full-price items only.');
    expect(telugu).toContain('క్యాష్‌బ్యాక్ సుమారు 45 రోజుల్లో నిర్ధారణ అవుతుంది');

    const nothing = await page(`/store/${none.slug}`);
    expect(nothing).not.toContain('Cashback at Nimbu Naturals');
    expect(nothing).not.toContain('How to earn it');
    expect(nothing).toContain('+ up to ₹150.00 cashback');
    const offers = jsonLd(nothing).find((item) => item['@type'] === 'Store')!.makesOffer as object[];
    expect(offers.some((offer) => 'category' in offer)).toBe(false);

    const stores = await page('/stores');
    expect(stores).toContain('Up to 7% cashback');
    expect(stores).toContain('Up to 5% cashback');
  });

  it('follow a change of a store’s rates at once, in the API and on the site', async () => {
    await page(`/store/${paid.slug}`);
    await json(`/api/stores/${paid.slug}`);
    await json('/api/coupons?perPage=100');
    const saved = await admin('PUT', `/api/admin/cashback-rates/${paid.merchant.id}`, {
      base: { percent: '9.5' },
      categories: [],
    });
    expect(saved.statusCode).toBe(200);
    await eventually(
      async () => (await json(`/api/stores/${paid.slug}`)).cashback.upTo.percent === '9.50',
      'the store page’s new rate',
      5_000,
    );
    await eventually(
      async () => JSON.stringify((await card(paid.coupons[0]!))?.cashback) === '{"percent":"9.50"}',
      'the card’s new rate',
      5_000,
    );
    await eventually(
      async () => (await page(`/store/${paid.slug}`)).includes('Up to 9.5% cashback'),
      'the rendered page’s new rate',
      5_000,
    );
  });
});
