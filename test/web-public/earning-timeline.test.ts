import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { registerAndSignInUser, type Session } from '../support/accounts.js';
import { inContext, launchBrowser, step, type WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { type CashbackShop, cashbackShop, confirmedCashback } from '../support/payouts.js';
import { seriousViolations, serveSite, visit } from '../support/web-public.js';

/**
 * A shopper opens an earning from My earnings and reads its timeline, on a phone and a desktop,
 * in English and Hindi: one shopper, one pending purchase, one page load per screen and language.
 */
const BROWSER_TEST_MS = 120_000;
const SCREENS = [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
  { name: 'desktop', viewport: { width: 1366, height: 900 }, isMobile: false },
] as const;

let market: Marketplace;
let shop: CashbackShop;
let site: WebApp;
let browser: Browser;
let shopper: Session;
let earningId: number;

beforeAll(async () => {
  market = await startMarketplace('web_public_earning_timeline');
  shop = await cashbackShop(market);
  await market.api.dataSource.query(
    "INSERT INTO merchant_stores (merchant_id, store_name, store_address) VALUES ($1, 'Kesar Beauty', 'Jaipur')",
    [shop.merchant.id],
  );
  shopper = (await registerAndSignInUser(market.api.baseUrl)).session;
  // Tracked, still pending: every kind of step shows (done, now, upcoming).
  earningId = await confirmedCashback(market, shop, shopper, '2499', { confirm: false });
  site = await serveSite(market);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

const TEXTS = {
  en: {
    prefix: '',
    open: /see its timeline/,
    steps: ['Purchase tracked', 'Pending', 'Confirmed', 'Paid'],
    now: 'Now',
    expected: /^Expected by /,
    confirmDays: 'Kesar Beauty confirms purchases within 60 days.',
  },
  hi: {
    prefix: '/hi',
    open: /इसकी टाइमलाइन देखें/,
    steps: ['ख़रीदारी ट्रैक हुई', 'लंबित', 'कन्फ़र्म', 'भुगतान हुआ'],
    now: 'अभी',
    expected: / तक अपेक्षित$/,
    confirmDays: 'Kesar Beauty ख़रीदारी 60 दिनों में कन्फ़र्म करता है।',
  },
} as const;

async function readTimeline(page: Page, language: keyof typeof TEXTS) {
  const text = TEXTS[language];
  await step(page, `earnings-${language}`, async () => {
    await visit(page, `${text.prefix}/account/earnings`);
    await page.getByRole('link', { name: text.open }).click();
  });
  await step(page, `timeline-${language}`, async () => {
    await page.getByRole('heading', { level: 1, name: /Kesar Beauty/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`${text.prefix}/account/earnings/${earningId}`);
    const steps = page.locator('ol.timeline > li');
    await expect(steps.locator('.timeline-name').allTextContents()).resolves.toEqual([...text.steps]);
    const current = page.locator('ol.timeline > li[aria-current="step"]');
    await expect(current.locator('.timeline-name').textContent()).resolves.toBe(text.steps[1]);
    await expect(current.locator('.timeline-status').textContent()).resolves.toBe(text.now);
    await expect(current.locator('.timeline-expected').textContent()).resolves.toMatch(text.expected);
    await current.getByText(text.confirmDays).waitFor();
    await expect(steps.first().locator('time').getAttribute('datetime')).resolves.toMatch(/^\d{4}-/);
    expect(await seriousViolations(page)).toEqual([]);
    const width = page.viewportSize()!.width;
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
  });
}

describe('an earning’s timeline in the account area', () => {
  for (const screen of SCREENS) {
    it(
      `opens from My earnings and reads its steps on a ${screen.name}, in English and Hindi`,
      async () => {
        const context = await browser.newContext({
          baseURL: site.url,
          viewport: screen.viewport,
          isMobile: screen.isMobile,
        });
        await context.addCookies(
          shopper.cookie.split('; ').map((pair) => {
            const [name, ...rest] = pair.split('=');
            return { name: name!, value: rest.join('='), url: site.url };
          }),
        );
        await inContext(context, `earning-timeline-${screen.name}`, async (page) => {
          await readTimeline(page, 'en');
          await readTimeline(page, 'hi');
        });
      },
      BROWSER_TEST_MS,
    );
  }
});
