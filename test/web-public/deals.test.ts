import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AddCoupon } from '@offers/api/commands';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { inContext, launchBrowser, type WebApp } from '../support/browser.js';
import {
  approve,
  commandsOf,
  type Marketplace,
  startMarketplace,
  submitCoupon,
} from '../support/marketplace.js';
import { seriousViolations, serveSite, untilAllListed, visit } from '../support/web-public.js';

/**
 * Coupons of networks' feeds on a phone, in a real browser on the production build: a deal
 * without a code says "Get deal" and leads to the store, an exclusive coupon carries its badge,
 * an open-ended one shows no end, and `/hi/` pages show the Hindi titles coupons have.
 */

const BROWSER_TEST_MS = 120_000;
const PHONE = { width: 390, height: 844 };

let market: Marketplace;
let site: WebApp;
let browser: Browser;
let storeName: string;
let storeSlug: string;

beforeAll(async () => {
  market = await startMarketplace('web_public_deals');
  const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl);
  // A merchant's coupon with a code, which stays "Get code".
  const coded = await submitCoupon(market, merchant, { title: 'Rose toner 20% off', percentage: '20' });
  if ((await approve(market, coded)).statusCode !== 200) throw new Error('not approved');
  const commands = commandsOf(market);
  await commands.execute(
    new AddCoupon(
      merchant.id,
      1,
      {
        code: null,
        title: 'Free shipping on every order',
        description: 'No minimum order, all over India.',
        terms: null,
        percentage: null,
        discountValue: null,
        expiryDate: null,
        exclusive: true,
        merchantUrl: 'https://shop.example.in/deals',
        categoryIds: [1],
        texts: {
          hi: { title: 'हर ऑर्डर पर मुफ़्त शिपिंग', description: 'कोई न्यूनतम ऑर्डर नहीं, पूरे भारत में।', terms: null },
        },
      },
      true,
    ),
  );
  await untilAllListed(market, 2);
  [{ name: storeName, slug: storeSlug }] = await market.api.dataSource.query(
    'SELECT brand_name AS name, slug FROM merchants WHERE id = $1',
    [merchant.id],
  );
  site = await serveSite(market);
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

async function onPhone(name: string, steps: (page: Page, context: BrowserContext) => Promise<void>) {
  const context = await browser.newContext({ baseURL: site.url, viewport: PHONE });
  await context.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>shop</title>' }),
  );
  await inContext(context, name, steps);
}

describe('deals and exclusive coupons on a phone', () => {
  it(
    'says "Get deal" for a deal, which opens the way to the store and no code; a coded coupon still says "Get code"',
    () =>
      onPhone('deal', async (page) => {
        await visit(page, '/');
        await page
          .locator('.coupon-card', { hasText: 'Free shipping on every order' })
          .getByRole('button', { name: 'Get deal' })
          .waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await visit(page, '/coupons?sort=az');
        const deal = page.locator('.coupon-card', { hasText: 'Free shipping on every order' });
        const coded = page.locator('.coupon-card', { hasText: 'Rose toner 20% off' });
        await expect(coded.getByRole('button', { name: 'Get code' }).isVisible()).resolves.toBe(true);
        // No discount to say; the store's cashback (the site's default rate) follows the tags.
        await expect(deal.locator('.offer').textContent()).resolves.toBe('DealExclusive+ up to 5% cashback');
        // Open-ended: no end date; the coded one ends in 30 days.
        await expect(deal.locator('.ends').count()).resolves.toBe(0);
        await expect(coded.locator('.ends').count()).resolves.toBe(1);
        expect(await seriousViolations(page)).toEqual([]);

        await deal.getByRole('button', { name: 'Get deal' }).click();
        const dialog = page.getByRole('dialog', { name: 'Free shipping on every order' });
        // The way to the shop asks a visitor not signed in about the store's cashback first.
        await dialog.getByRole('button', { name: `Go to ${storeName}` }).waitFor();
        await expect(dialog.getByTestId('coupon-code').count()).resolves.toBe(0);
        await expect(dialog.getByRole('button', { name: 'Copy' }).count()).resolves.toBe(0);
        // Nothing to copy and no "did this code work?" for a deal.
        await expect(dialog.getByText('Did this code work?').count()).resolves.toBe(0);
        expect(await seriousViolations(page)).toEqual([]);
      }),
    BROWSER_TEST_MS,
  );

  it(
    'shows the Hindi title and the Exclusive badge on /hi/ pages, English titles where a coupon has none',
    () =>
      onPhone('deal-hindi', async (page) => {
        await visit(page, `/hi/store/${storeSlug}`);
        const deal = page.locator('.coupon-card', { hasText: 'हर ऑर्डर पर मुफ़्त शिपिंग' });
        await expect(deal.locator('.coupon-title').textContent()).resolves.toBe('हर ऑर्डर पर मुफ़्त शिपिंग');
        await expect(deal.locator('.exclusive').textContent()).resolves.toBe('एक्सक्लूसिव');
        await expect(deal.getByRole('button', { name: 'डील पाएँ' }).isVisible()).resolves.toBe(true);
        await expect(page.locator('.coupon-card .coupon-title').allTextContents()).resolves.toContain(
          'Rose toner 20% off',
        );
        await deal.getByRole('button', { name: 'विवरण' }).click();
        await deal.getByText('कोई न्यूनतम ऑर्डर नहीं, पूरे भारत में।').waitFor();
        expect(await seriousViolations(page)).toEqual([]);

        await visit(page, '/hi/coupons');
        await page.locator('.coupon-card .coupon-title', { hasText: 'हर ऑर्डर पर मुफ़्त शिपिंग' }).waitFor();
      }),
    BROWSER_TEST_MS,
  );
});
