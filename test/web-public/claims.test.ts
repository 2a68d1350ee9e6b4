import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLAIM_MESSAGES } from '@offers/api/rules';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { registerAndSignInUser, type Session } from '../support/accounts.js';
import { inContext, launchBrowser, step, type WebApp } from '../support/browser.js';
import { clickOutDaysAgo } from '../support/claims.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { type CashbackShop, cashbackShop } from '../support/payouts.js';
import { reload, seriousViolations, serveSite, visit } from '../support/web-public.js';

/**
 * A shopper's missing cashback in the account area: a claim filed for a click-out with its order
 * and an invoice image, the answer expected by a date, then the answers (approved with the
 * cashback, rejected with the reason); on a phone in English and on a desktop in Hindi, where the
 * API's message of a visit past the store's claim window is read in Hindi.
 */
const BROWSER_TEST_MS = 120_000;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

let market: Marketplace;
let shop: CashbackShop;
let site: WebApp;
let browser: Browser;
let shopper: Session;
/** Click-outs of the shopper: one to claim in the browser, one past the window later, two answered. */
const clicks = {} as Record<'toFile' | 'toAge' | 'approved' | 'rejected', string>;

const inject = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload: payload as string });

let addresses = 0;
/** A real click-out of the shopper, copied `daysAgo` days into the past under a click id of that time. */
async function clickOf(daysAgo: number): Promise<string> {
  addresses += 1;
  const headers = { ...shopper.bearer, 'x-forwarded-for': `10.93.0.${addresses}` };
  return clickOutDaysAgo(market, shop.couponId, headers, daysAgo);
}

const indiaToday = () => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);

async function fileByApi(clickId: string, orderId: string, amount: string): Promise<number> {
  const filed = await inject(
    'POST',
    '/api/me/missing-cashback-claims',
    { ...shopper.bearer, 'content-type': 'application/json' },
    JSON.stringify({ clickId, orderId, orderDate: indiaToday(), amount }),
  );
  if (filed.statusCode !== 201) throw new Error(`claim not filed: ${filed.body}`);
  return filed.json().id as number;
}

async function answer(claimId: number, action: 'approve' | 'reject', reason?: string) {
  const answered = await inject(
    'POST',
    `/api/admin/missing-cashback-claims/${claimId}/${action}`,
    market.admin,
    reason ? { reason } : undefined,
  );
  if (answered.statusCode !== 200) throw new Error(`claim not answered: ${answered.body}`);
}

beforeAll(async () => {
  market = await startMarketplace('web_public_claims');
  shop = await cashbackShop(market, { title: 'Kesar glow serum 30% off' });
  await market.api.dataSource.query(
    "INSERT INTO merchant_stores (merchant_id, store_name, store_address) VALUES ($1, 'Kesar Beauty', 'Jaipur')",
    [shop.merchant.id],
  );
  shopper = (await registerAndSignInUser(market.api.baseUrl, { userName: 'Asha Rao' })).session;
  clicks.toFile = await clickOf(3);
  clicks.toAge = await clickOf(10);
  clicks.approved = await clickOf(5);
  clicks.rejected = await clickOf(8);
  await answer(await fileByApi(clicks.approved, 'KB-APPROVED-1', '2000'), 'approve');
  await answer(
    await fileByApi(clicks.rejected, 'KB-REJECTED-1', '850'),
    'reject',
    'The store says this order was returned.',
  );
  site = await serveSite(market);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

/** Runs the steps as the signed-in shopper in a window of that size; on failure keeps a screenshot. */
async function asShopper(
  name: string,
  viewport: typeof PHONE,
  steps: (page: Page, context: BrowserContext) => Promise<void>,
) {
  const context = await browser.newContext({
    baseURL: site.url,
    viewport,
    isMobile: viewport.width < 600,
  });
  await context.addCookies(
    shopper.cookie.split('; ').map((pair) => {
      const [cookieName, ...rest] = pair.split('=');
      return { name: cookieName!, value: rest.join('='), url: site.url };
    }),
  );
  await inContext(context, name, steps);
}

const expectAccessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);

/** Nothing on the page is wider than the window (no sideways scrolling on a phone). */
const fitsTheWidth = async (page: Page, width: number) => {
  const wide = await page.evaluate(`[...document.querySelectorAll('main *')]
    .filter((element) => element.getBoundingClientRect().right > ${width} + 1)
    .map((element) => element.tagName + '.' + element.className + ' ' + Math.round(element.getBoundingClientRect().right))`);
  expect(wide).toEqual([]);
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
};

/** The card of the claim of this order id. */
const card = (page: Page, orderId: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: new RegExp(orderId) }) });

describe('missing cashback in the account area', () => {
  it(
    'on a phone, files a claim with its invoice, sees when the answer is due, then the answers',
    async () => {
      await asShopper('claims-phone', PHONE, async (page) => {
        await step(page, 'claims-phone-open', async () => {
          await visit(page, '/account/claims');
          await page.getByRole('heading', { name: 'Missing cashback', level: 1 }).waitFor();
          // Answered claims: the approval with its cashback at the rate live at the click (the
          // site's default 5 %: the store's own rate came later), the rejection with its reason.
          await card(page, 'KB-APPROVED-1')
            .getByText(/^Approved on .+: ₹100\.00 cashback pending$/)
            .waitFor();
          const rejected = card(page, 'KB-REJECTED-1');
          await rejected.getByText(/^Not approved on /).waitFor();
          await rejected.getByText('The store says this order was returned.').waitFor();
          await expectAccessible(page);
          await fitsTheWidth(page, PHONE.width);
        });

        await step(page, 'claims-phone-errors', async () => {
          await page.getByRole('button', { name: 'File the claim' }).click();
          await page.getByText(CLAIM_MESSAGES.clickId).waitFor();
          await page.getByText(CLAIM_MESSAGES.orderId.required).waitFor();
          await page.getByText(CLAIM_MESSAGES.amount.required).waitFor();
          const orderId = page.getByLabel(/^Order id/);
          await expect(orderId.getAttribute('aria-invalid')).resolves.toBe('true');
          await expectAccessible(page);
        });

        await step(page, 'claims-phone-filed', async () => {
          // Only the click-outs that can be claimed: the answered ones are not offered again.
          const visits = page.getByLabel(/^Your visit to the store/);
          await expect(visits.locator('option').count()).resolves.toBe(3);
          await visits.selectOption(clicks.toFile);
          await page.getByLabel(/^Order id/).fill('KB-4471-22981');
          await page.getByLabel(/^Order date/).fill(indiaToday());
          await page.getByLabel(/^Amount paid/).fill('1299.50');
          const invoice = await sharp({
            create: { width: 120, height: 160, channels: 3, background: 'white' },
          })
            .jpeg()
            .toBuffer();
          await page
            .getByLabel('Invoice (optional)')
            .setInputFiles({ name: 'invoice.jpg', mimeType: 'image/jpeg', buffer: invoice });
          await page.getByRole('button', { name: 'File the claim' }).click();
          await page.getByText('Your claim is filed. We will answer by the date shown.').waitFor();
          const filed = card(page, 'KB-4471-22981');
          await filed.getByText('₹1,299.50 on', { exact: false }).waitFor();
          await filed.getByText(/^Answer expected by \d{1,2} \w+ \d{4}$/).waitFor();
          // The form is empty again, its file too.
          await expect(page.getByLabel(/^Order id/).inputValue()).resolves.toBe('');
          await expect(page.getByLabel('Invoice (optional)').inputValue()).resolves.toBe('');
          // The invoice is the shopper's to see, never kept by the browser's cache.
          const href = await filed.getByRole('link', { name: 'See the invoice' }).getAttribute('href');
          const image = await page.request.get(href!);
          expect(image.status()).toBe(200);
          expect(image.headers()['content-type']).toBe('image/jpeg');
          expect(image.headers()['cache-control']).toBe('private, no-store');
          await expectAccessible(page);
          await fitsTheWidth(page, PHONE.width);
        });

        const [claim] = await market.api.dataSource.query(
          "SELECT id FROM missing_cashback_claims WHERE order_id = 'KB-4471-22981'",
        );
        await answer(claim.id, 'reject', 'The invoice is of another store.');

        await step(page, 'claims-phone-answered', async () => {
          await reload(page);
          const answered = card(page, 'KB-4471-22981');
          await answered.getByText(/^Not approved on /).waitFor();
          await answered.getByText('The invoice is of another store.').waitFor();
          await expect(answered.getByText(/^Answer expected by/).count()).resolves.toBe(0);
          await fitsTheWidth(page, PHONE.width);
        });
      });
    },
    BROWSER_TEST_MS,
  );

  it(
    'on a desktop in Hindi, shows the answers and the API’s message for a visit past the store’s window',
    async () => {
      await asShopper('claims-desktop-hi', DESKTOP, async (page) => {
        await step(page, 'claims-desktop-hi-open', async () => {
          await visit(page, '/hi/account/claims');
          await page.getByRole('heading', { name: 'छूटा कैशबैक', level: 1 }).waitFor();
          await card(page, 'KB-APPROVED-1')
            .getByText(/को मंज़ूर: ₹100\.00 कैशबैक पेंडिंग$/)
            .waitFor();
          await card(page, 'KB-REJECTED-1')
            .getByText(/को मंज़ूर नहीं हुआ:/)
            .waitFor();
          await expectAccessible(page);
          await fitsTheWidth(page, DESKTOP.width);
        });

        await step(page, 'claims-desktop-hi-too-old', async () => {
          await page.getByLabel(/^स्टोर पर आपकी विज़िट/).selectOption(clicks.toAge);
          await page.getByLabel(/^ऑर्डर आईडी/).fill('KB-5512-10077');
          await page.getByLabel(/^ऑर्डर की तारीख़/).fill(indiaToday());
          await page.getByLabel(/^चुकाई गई राशि/).fill('640');
          // Meanwhile an admin shortens the store's claim window below the visit's 10 days.
          const window = await inject('PUT', `/api/admin/cashback-rates/${shop.merchant.id}`, market.admin, {
            claimWindowDays: 7,
          });
          expect(window.statusCode).toBe(200);
          await page.getByRole('button', { name: 'दावा दर्ज करें' }).click();
          const said = 'यह स्टोर विज़िट के 7 दिन बाद तक ही दावे लेता है; यह विज़िट उससे पुरानी है।';
          // Beside the visit it is about, announced, and said once.
          await page.locator('#claim-clickId-error').getByText(said).waitFor();
          await expect(page.getByText(said).count()).resolves.toBe(1);
          await expect(page.getByLabel(/^स्टोर पर आपकी विज़िट/).getAttribute('aria-invalid')).resolves.toBe(
            'true',
          );
          await expectAccessible(page);
        });
      });
      const [{ count }] = await market.api.dataSource.query(
        "SELECT count(*)::int AS count FROM missing_cashback_claims WHERE order_id = 'KB-5512-10077'",
      );
      expect(count).toBe(0);
    },
    BROWSER_TEST_MS,
  );
});
