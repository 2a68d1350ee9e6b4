import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLAIM_MESSAGES } from '@offers/api/rules';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { expectAccessible } from '../support/accessibility.js';
import { registerAndSignInUser, type Session } from '../support/accounts.js';
import { signInAsAdmin } from '../support/backoffice.js';
import { launchBrowser, seriousViolations, serveWebApp, step, type WebApp } from '../support/browser.js';
import { clickOutDaysAgo } from '../support/claims.js';
import { multipart } from '../support/coupons.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { type CashbackShop, cashbackShop } from '../support/payouts.js';

/**
 * An admin works the missing-cashback queue in the back-office: the claims beside their
 * click-outs, the filters by state and kind, a claim's private invoice, an approval and a
 * rejection with its reason; on a desktop in English, and on a phone in Hindi, where each item is
 * a card that fits the screen and a purchase reported without a click is credited.
 */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

let market: Marketplace;
let shop: CashbackShop;
let site: WebApp;
let browser: Browser;
/** The queue's items: three shoppers' claims (one with its invoice) and a purchase without a click. */
const items = {} as Record<'withInvoice' | 'toReject' | 'otherAddress' | 'noClick', number>;

const inject = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload: payload as string });

/** A click-out of the shopper from `address`, copied `daysAgo` days into the past. */
async function clickOf(shopper: Session, daysAgo: number, address: string): Promise<string> {
  return clickOutDaysAgo(market, shop.couponId, { ...shopper.bearer, 'x-forwarded-for': address }, daysAgo);
}

const indiaToday = () => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);

/** A shopper's claim of a click-out made from one address, filed from `filedFrom`; its id. */
async function claimOf(name: string, orderId: string, filedFrom: string, invoice?: Buffer) {
  const { session } = await registerAndSignInUser(market.api.baseUrl, { userName: name });
  const clickId = await clickOf(session, 4, '10.94.0.1');
  const form = multipart(
    { clickId, orderId, orderDate: indiaToday(), amount: '1499' },
    invoice ? { invoice: { name: 'invoice.jpg', type: 'image/jpeg', bytes: invoice } } : {},
  );
  const filed = await inject(
    'POST',
    '/api/me/missing-cashback-claims',
    { ...session.bearer, ...form.headers, 'x-forwarded-for': filedFrom },
    form.payload,
  );
  if (filed.statusCode !== 201) throw new Error(`claim not filed: ${filed.body}`);
  return filed.json().id as number;
}

beforeAll(async () => {
  market = await startMarketplace('backoffice_claims');
  shop = await cashbackShop(market, { title: 'Kesar glow serum 30% off' });
  await market.api.dataSource.query(
    "INSERT INTO merchant_stores (merchant_id, store_name, store_address) VALUES ($1, 'Kesar Beauty', 'Jaipur')",
    [shop.merchant.id],
  );
  const invoice = await sharp({ create: { width: 80, height: 120, channels: 3, background: 'white' } })
    .jpeg()
    .toBuffer();
  items.withInvoice = await claimOf('Meena Iyer', 'KB-1001', '10.94.0.1', invoice);
  items.toReject = await claimOf('Farhan Qureshi', 'KB-1002', '10.94.0.1');
  items.otherAddress = await claimOf('Lakshmi Reddy', 'KB-1003', '10.94.9.9');
  // A purchase the store reports with a referral code only: it waits in the queue.
  const { session: buyer } = await registerAndSignInUser(market.api.baseUrl, {
    userName: 'Sunita Deshpande',
  });
  const referralCode = (await inject('GET', '/api/me/referral', buyer.bearer)).json().code;
  const body = JSON.stringify({
    purchaseReference: 'KB-2001',
    couponId: shop.couponId,
    referralCode,
    purchaseType: 'online',
    purchaseAmount: '800',
  });
  const reported = await inject(
    'POST',
    '/api/postbacks/purchases',
    {
      'content-type': 'application/json',
      'x-signature': `sha256=${createHmac('sha256', shop.secret).update(body).digest('hex')}`,
    },
    body,
  );
  expect(reported.statusCode).toBe(201);
  const [held] = await market.api.dataSource.query(
    "SELECT id FROM missing_cashback_claims WHERE kind = 'no_click' AND order_id = 'KB-2001'",
  );
  items.noClick = held.id;
  site = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

const claimRows = () =>
  market.api.dataSource.query(
    'SELECT id, state, reason, earning_id IS NOT NULL AS credited FROM missing_cashback_claims ORDER BY id',
  );

describe('back-office: the missing-cashback queue', () => {
  it('on a desktop, an admin filters the queue, opens an invoice, approves a claim and rejects one with a reason', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    // No warning or error in the console along the way (React keys, MUI props, failed requests).
    const problems: string[] = [];
    page.on('console', (message) => {
      if (['error', 'warning'].includes(message.type())) problems.push(message.text().split('\n')[0]!);
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const row = (id: number) =>
      page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(id), exact: true }) });

    await step(page, 'claim-queue', async () => {
      await signInAsAdmin(page, site.url);
      await page.getByRole('menuitem', { name: 'Missing cashback' }).click();
      await row(items.noClick).waitFor();
      // Open items, oldest first; beside each claim its click-out and whence it was filed.
      const ids = await page.locator('tbody td.column-id').allTextContents();
      expect(ids.map(Number)).toEqual([items.withInvoice, items.toReject, items.otherAddress, items.noClick]);
      await row(items.withInvoice).getByText('Meena Iyer').waitFor();
      await row(items.withInvoice).getByText('Kesar glow serum 30% off').waitFor();
      await row(items.withInvoice).getByText('Same address as the click').waitFor();
      await row(items.otherAddress).getByText('Another address').waitFor();
      await row(items.noClick).getByText('Purchase without a click').waitFor();
      await row(items.withInvoice).getByText('₹1,499.00').waitFor();
      // The whole table within a laptop's screen: nothing to scroll sideways.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(DESKTOP.width);
      expectAccessible(await seriousViolations(page));
    });

    await step(page, 'claim-queue-kind', async () => {
      await page.getByRole('combobox', { name: 'Kind' }).click();
      await page.getByRole('option', { name: 'Purchase without a click' }).click();
      await row(items.withInvoice).waitFor({ state: 'detached' });
      await row(items.noClick).waitFor();
      await page.getByRole('combobox', { name: 'Kind' }).click();
      await page.getByRole('option', { name: 'Shopper’s claim' }).click();
      await row(items.noClick).waitFor({ state: 'detached' });
      await row(items.withInvoice).waitFor();
    });

    await step(page, 'claim-queue-invoice', async () => {
      // The invoice opens in its own tab, as the admin's: an image the browser does not keep.
      const link = row(items.withInvoice).getByRole('link', { name: 'Invoice' });
      const [tab] = await Promise.all([page.waitForEvent('popup'), link.click()]);
      await tab.waitForLoadState();
      expect(tab.url()).toBe(`${site.url}${await link.getAttribute('href')}`);
      // Chromium shows an image it opens by itself in a page of its own: the invoice is one.
      await tab.locator('img').waitFor();
      const shown = await page.request.get(tab.url());
      expect(shown.status()).toBe(200);
      expect(shown.headers()['content-type']).toBe('image/jpeg');
      expect(shown.headers()['cache-control']).toBe('private, no-store');
      await tab.close();
      await expect(row(items.toReject).getByRole('link', { name: 'Invoice' }).count()).resolves.toBe(0);
    });

    await step(page, 'claim-queue-approved', async () => {
      await row(items.withInvoice)
        .getByRole('button', { name: `Approve #${items.withInvoice}` })
        .click();
      await page.getByText('Approved: the purchase is now the shopper’s pending cashback.').waitFor();
      await row(items.withInvoice).waitFor({ state: 'detached' });
    });

    await step(page, 'claim-queue-reject', async () => {
      await row(items.toReject)
        .getByRole('button', { name: `Reject #${items.toReject}` })
        .click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await dialog.getByText(CLAIM_MESSAGES.reason.required).waitFor();
      expectAccessible(await seriousViolations(page));
      await dialog.getByLabel(/^Reason/).fill('The store says this order was cancelled.');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await page.getByText('Rejected: the shopper can read the reason.').waitFor();
      await row(items.toReject).waitFor({ state: 'detached' });
    });

    await step(page, 'claim-queue-answered', async () => {
      await page.getByRole('combobox', { name: 'State' }).click();
      await page.getByRole('option', { name: 'Rejected' }).click();
      await row(items.toReject).getByText('Rejected: The store says this order was cancelled.').waitFor();
      await expect(row(items.toReject).getByRole('button').count()).resolves.toBe(0);
      expectAccessible(await seriousViolations(page));
    });
    expect(await claimRows()).toEqual(
      expect.arrayContaining([
        { id: items.withInvoice, state: 'approved', reason: null, credited: true },
        {
          id: items.toReject,
          state: 'rejected',
          reason: 'The store says this order was cancelled.',
          credited: false,
        },
      ]),
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  it('on a phone in Hindi, shows a card per item that fits the screen and credits a purchase without a click', async () => {
    const page = await browser.newPage({ viewport: PHONE, isMobile: true });
    const card = (id: number) =>
      page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: new RegExp(`^#${id} `) }) });

    await step(page, 'claim-queue-phone-hi', async () => {
      await signInAsAdmin(page, site.url);
      await page.getByRole('button', { name: 'English', exact: true }).click();
      await page.getByRole('menuitem', { name: 'हिन्दी' }).click();
      await page.goto(`${site.url}/#/missing-cashback-claims`);
      await card(items.noClick).waitFor();
      await card(items.noClick)
        .getByRole('heading', { name: `#${items.noClick} · ₹800.00 · Kesar Beauty` })
        .waitFor();
      await card(items.noClick).getByText('बिना क्लिक की ख़रीदारी · इंतज़ार में').waitFor();
      await card(items.otherAddress).getByText('दूसरा पता').waitFor();
      await card(items.otherAddress).getByText('Lakshmi Reddy', { exact: false }).waitFor();
      await expect(page.locator('table').count()).resolves.toBe(0);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      const box = await card(items.noClick)
        .getByRole('button', { name: `नामंज़ूर करें #${items.noClick}` })
        .boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
      expectAccessible(await seriousViolations(page));

      await card(items.noClick)
        .getByRole('button', { name: `मंज़ूर करें #${items.noClick}`, exact: true })
        .click();
      await page.getByText('मंज़ूर: यह ख़रीदारी अब ख़रीदार का पेंडिंग कैशबैक है।').waitFor();
      await card(items.noClick).waitFor({ state: 'detached' });
    });
    const [earning] = await market.api.dataSource.query(
      "SELECT held_for_review AS held, state FROM earnings WHERE purchase_reference = 'KB-2001'",
    );
    expect(earning).toEqual({ held: false, state: 'pending' });
    await page.close();
  });
});
