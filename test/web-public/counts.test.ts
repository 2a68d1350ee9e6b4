import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { inContext, launchBrowser, type WebApp } from '../support/browser.js';
import {
  approve,
  type Marketplace,
  startMarketplace,
  submitCoupon,
  untilEventsProcessed,
} from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';
import { serveSite, untilAllListed, visit } from '../support/web-public.js';

/**
 * Counts on the public site read right in English, Hindi and Telugu, in a real browser on the
 * production build: a coupon used once today, a store with one live coupon, and their plurals.
 */

const BROWSER_TEST_MS = 120_000;

let market: Marketplace;
let site: WebApp;
let browser: Browser;
/** A store with one live coupon, revealed once today, and one with two, one of them revealed twice. */
const stores = { one: { name: 'Ek Kesar', slug: '' }, two: { name: 'Do Chandan', slug: '' } };

async function liveCoupons(brandName: string, titles: string[]) {
  const { session } = await registerAndSignInMerchant(market.api.baseUrl, { brandName });
  const ids: number[] = [];
  for (const title of titles) {
    const id = await submitCoupon(market, session, { title });
    if ((await approve(market, id)).statusCode !== 200) throw new Error('not approved');
    ids.push(id);
  }
  const [{ slug }] = await market.api.dataSource.query('SELECT slug FROM merchants WHERE id = $1', [
    session.id,
  ]);
  return { ids, slug: slug as string };
}

async function reveal(couponId: number, address: string) {
  const response = await market.api.http.inject({
    method: 'POST',
    url: `/api/coupons/${couponId}/reveal`,
    headers: { 'x-forwarded-for': address },
  });
  if (response.statusCode !== 200) throw new Error(`not revealed: ${response.body}`);
}

beforeAll(async () => {
  market = await startMarketplace('web_public_counts');
  const one = await liveCoupons(stores.one.name, ['Kesar face pack 30% off']);
  const two = await liveCoupons(stores.two.name, ['Sandal soap 3 for 2', 'Sandal talc 20% off']);
  stores.one.slug = one.slug;
  stores.two.slug = two.slug;
  await untilAllListed(market, 3);
  await reveal(one.ids[0]!, '10.7.0.1');
  await reveal(two.ids[0]!, '10.7.0.1');
  await reveal(two.ids[0]!, '10.7.0.2');
  await untilEventsProcessed(market);
  await eventually(async () => {
    const rows: Array<{ clicks: number }> = await market.api.dataSource.query(
      'SELECT clicks_today AS clicks FROM coupon_listings WHERE coupon_id = ANY($1) ORDER BY coupon_id',
      [[one.ids[0], two.ids[0]]],
    );
    return rows.map((row) => row.clicks).join() === '1,2';
  }, 'the reveals counted on the cards');
  site = await serveSite(market);
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

const inBrowser = async (name: string, steps: (page: Page) => Promise<void>) =>
  inContext(await browser.newContext({ baseURL: site.url }), name, steps);

/** The lines of a store's card's details, opened ("Used 1 time today" among them). */
async function details(page: Page, path: string, title: string) {
  await visit(page, path);
  const card = page.locator('.coupon-card', { hasText: title });
  await card.locator('.details-toggle').click();
  await card.locator('.coupon-details p').first().waitFor();
  return card.locator('.coupon-details p').allTextContents();
}

async function storeTile(page: Page, path: string, name: string) {
  await visit(page, path);
  return page.locator('.store-tile', { hasText: name }).locator('.store-tile-count').textContent();
}

/** The page's description for search engines and link previews, as the server wrote it. */
async function description(path: string) {
  const html = await (await fetch(`${site.url}${path}`)).text();
  return /<meta name="description" content="([^"]*)">/.exec(html)?.[1];
}

describe('counts on the public site', () => {
  it.each([
    ['English', '', 'Used 1 time today', 'Used 2 times today', '1 live coupon', '2 live coupons'],
    ['Hindi', '/hi', 'आज 1 बार इस्तेमाल हुआ', 'आज 2 बार इस्तेमाल हुआ', '1 चालू कूपन', '2 चालू कूपन'],
    ['Telugu', '/te', 'ఈరోజు 1 సారి వాడారు', 'ఈరోజు 2 సార్లు వాడారు', '1 ప్రస్తుత కూపన్', '2 ప్రస్తుత కూపన్‌లు'],
  ])(
    'reads right in %s: a coupon used once or twice today, a store with one live coupon or two',
    (language, base, usedOnce, usedTwice, oneCoupon, twoCoupons) =>
      inBrowser(`counts in ${language}`, async (page) => {
        await expect(details(page, `${base}/store/${stores.one.slug}`, 'Kesar face pack')).resolves.toContain(
          usedOnce,
        );
        await expect(details(page, `${base}/store/${stores.two.slug}`, 'Sandal soap')).resolves.toContain(
          usedTwice,
        );
        await expect(storeTile(page, `${base}/stores`, stores.one.name)).resolves.toBe(oneCoupon);
        await expect(storeTile(page, `${base}/stores`, stores.two.name)).resolves.toBe(twoCoupons);
      }),
    BROWSER_TEST_MS,
  );

  it('describes a store by its counts, each in its form, in the three languages', async () => {
    await expect(description(`/store/${stores.one.slug}`)).resolves.toMatch(
      /^Ek Kesar: 1 live coupon and 0 products\./,
    );
    await expect(description(`/store/${stores.two.slug}`)).resolves.toMatch(
      /^Do Chandan: 2 live coupons and 0 products\./,
    );
    await expect(description(`/hi/store/${stores.one.slug}`)).resolves.toMatch(
      /^Ek Kesar: 1 चालू कूपन और 0 उत्पाद।/,
    );
    await expect(description(`/te/store/${stores.one.slug}`)).resolves.toMatch(
      /^Ek Kesar: 1 ప్రస్తుత కూపన్ మరియు 0 ఉత్పత్తులు\./,
    );
  });
});
