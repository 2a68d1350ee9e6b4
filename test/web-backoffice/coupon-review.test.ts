import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEVELOPMENT_ADMIN_PASSWORD } from '@offers/api/demo';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible } from '../support/accessibility.js';
import {
  BEARER_SIGN_IN,
  confirmMerchantEmail,
  merchantRegistration,
  sessionFrom,
} from '../support/accounts.js';
import { send } from '../support/api-app.js';
import { signInToBackoffice } from '../support/backoffice.js';
import { launchBrowser, seriousViolations, serveWebApp, step, type WebApp } from '../support/browser.js';
import { ONE_PIXEL_PNG } from '../support/coupons.js';
import {
  approve,
  listed,
  type Marketplace,
  startMarketplace,
  submitCoupon,
  untilEventsProcessed,
  untilListed,
} from '../support/marketplace.js';

let market: Marketplace;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('backoffice_coupons');
  site = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

async function registerMerchant() {
  const registration = merchantRegistration();
  const response = await send(market.api.baseUrl, {
    method: 'POST',
    url: '/api/auth/merchants/register',
    payload: registration,
  });
  expect(response.statusCode).toBe(201);
  // Only a merchant that confirmed its email has its coupons on the shop front.
  await confirmMerchantEmail(market.api.baseUrl, response.json().merchantId, registration.email);
  return registration;
}

/** The merchant's API session (a bearer token), to submit coupons as the older client does. */
async function apiSession(registration: { userName: string; password: string }) {
  return sessionFrom(
    await send(market.api.baseUrl, {
      method: 'POST',
      url: '/api/auth/merchants/login',
      headers: BEARER_SIGN_IN,
      payload: { userName: registration.userName, password: registration.password },
    }),
    0,
  );
}

const signIn = (page: Page, tab: 'Merchant' | 'Admin', username: string, password: string) =>
  signInToBackoffice(page, site.url, tab, username, password);

async function signOut(page: Page) {
  await page.locator('.RaUserMenu-userButton').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
}

describe('back-office: a coupon from a merchant to the shop front', () => {
  it('a merchant uploads a coupon with an ad image and its Hindi texts, and an admin approves it into a slot', async () => {
    const registration = await registerMerchant();
    const page = await browser.newPage();
    const title = `Diwali serum ${Date.now() % 100000}`;
    const hindiTitle = 'दिवाली सीरम ऑफ़र';

    await step(page, 'merchant-sign-in', async () => {
      await page.goto(site.url);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expectAccessible(await seriousViolations(page));
      // The button stays disabled until the spec's rules hold.
      await page.getByLabel('Username').fill('abc');
      await page.getByLabel('Password', { exact: true }).fill('abc');
      await page.getByLabel('Password', { exact: true }).blur();
      await expect(page.getByRole('button', { name: 'Sign in' }).isDisabled()).resolves.toBe(true);
      await page.getByText('username must be at least 4 characters.').waitFor();
      await signIn(page, 'Merchant', registration.userName, registration.password);
    });

    await step(page, 'merchant-coupon-create', async () => {
      await page.goto(`${site.url}/#/coupons/create`);
      await page.getByLabel('Coupon name').fill('Diwali Glow');
      await page.getByLabel('Coupon code').fill('GLOW-25');
      await page
        .getByLabel('Expiry date')
        .fill(new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10));
      await page.getByLabel(/^Title[\s*]*$/).fill(title);
      await page.getByLabel(/^Description[\s*]*$/).fill('Valid on serums and moisturisers.');
      await page.getByLabel('Terms and conditions').fill('One use per customer.');
      // Optional texts in Hindi, checked with the English fields' limits as one types.
      await page.getByLabel('Title in Hindi').fill('क'.repeat(51));
      await page.getByLabel('Title in Hindi').blur();
      await page.getByText('Title must be at most 50 characters.').waitFor();
      await page.getByLabel('Title in Hindi').fill(hindiTitle);
      await page.getByLabel('Description in Hindi').fill('सीरम और मॉइस्चराइज़र पर।');
      await page.getByLabel('Percentage').fill('25');
      // Only digits stay in the discount value, whatever is typed.
      await page.getByLabel('Discount value (₹)').pressSequentially('2a5-0');
      await expect(page.getByLabel('Discount value (₹)').inputValue()).resolves.toBe('250');
      await page.getByLabel('Requested slot').click();
      await page.getByRole('option').first().click();
      await page.getByLabel('Skin Care').check();
      await page
        .locator('input[type=file]')
        .setInputFiles({ name: 'ad.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG });
      await page.locator('img[src^="blob:"]').waitFor();
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText(`Coupon "${title}" saved.`).waitFor();
      await page.getByRole('cell', { name: title }).waitFor();
    });

    await step(page, 'merchant-refused-admin-screen', async () => {
      await page.goto(`${site.url}/#/coupon-reviews`);
      await page.getByText('Not Found').first().waitFor();
      await expect(page.getByRole('button', { name: /^Approve/ }).count()).resolves.toBe(0);
      const status = await page.evaluate(async () => (await fetch('/api/admin/coupons')).status);
      expect(status).toBe(403);
    });

    await step(page, 'merchant-sign-out', async () => {
      await page.goto(`${site.url}/#/`);
      await signOut(page);
      const kept = (await page.evaluate(
        '({ local: Object.keys(localStorage), session: sessionStorage.length })',
      )) as { local: string[]; session: number };
      expect(kept.local.filter((key) => key !== 'offers.backoffice.locale')).toEqual([]);
      expect(kept.session).toBe(0);
      const me = await page.evaluate(async () => (await fetch('/api/auth/me')).status);
      expect(me).toBe(401);
    });

    const [coupon] = (
      await market.api.http.inject({
        method: 'GET',
        url: `/api/admin/coupons?filter=${encodeURIComponent(JSON.stringify({ status: 'pending' }))}`,
        headers: market.admin,
      })
    )
      .json()
      .filter((record: { title: string }) => record.title === title);
    expect(coupon.imageUrl).toMatch(/^\/api\/media\//);

    await step(page, 'admin-approves', async () => {
      await signIn(page, 'Admin', 'admin', DEVELOPMENT_ADMIN_PASSWORD);
      expectAccessible(await seriousViolations(page));
      await page.goto(`${site.url}/#/coupon-reviews`);
      const row = page.getByRole('row').filter({ hasText: title });
      await row.getByRole('img').waitFor();
      await row.getByTestId('offer-hi').getByText(hindiTitle).waitFor();
      expectAccessible(await seriousViolations(page));
      await row.getByRole('button', { name: `Approve ${title}` }).click();
      const dialog = page.getByRole('dialog');
      // The requested slot is chosen already.
      await dialog
        .getByRole('combobox', { name: 'Slot' })
        .filter({ hasText: coupon.requestedSlotName })
        .waitFor();
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Coupon approved.').waitFor();
      await row.waitFor({ state: 'detached' });
    });

    expect(coupon).toMatchObject({
      titleHi: hindiTitle,
      descriptionHi: 'सीरम और मॉइस्चराइज़र पर।',
      titleTe: null,
    });
    await untilListed(market, coupon.id);
    expect((await listed(market)).data.find((card) => card.id === coupon.id)).toMatchObject({
      title,
      texts: { hi: { title: hindiTitle } },
    });
    await page.close();
  });

  it('rejecting asks a reason; cancelling rejects nothing; the merchant sees the reason', async () => {
    const registration = await registerMerchant();
    const merchant = await apiSession(registration);
    const title = `Blurry poster ${Date.now() % 100000}`;
    const couponId = await submitCoupon(market, merchant, { title });
    const page = await browser.newPage();

    await step(page, 'admin-rejects', async () => {
      await signIn(page, 'Admin', 'admin', DEVELOPMENT_ADMIN_PASSWORD);
      await page.goto(`${site.url}/#/coupon-reviews`);
      const row = page.getByRole('row').filter({ hasText: title });
      await row.getByRole('button', { name: `Reject ${title}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await dialog.getByText('A reason is required to reject a coupon.').waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      const afterCancel = await market.api.http.inject({
        method: 'GET',
        url: `/api/admin/coupons/${couponId}`,
        headers: market.admin,
      });
      expect(afterCancel.json().status).toBe('pending');

      await row.getByRole('button', { name: `Reject ${title}` }).click();
      await dialog.getByLabel(/Reason/).fill('not clear text');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await page.getByText('Coupon rejected.').waitFor();
    });

    const seen = await market.api.http.inject({
      method: 'GET',
      url: `/api/merchant/coupons/${couponId}`,
      headers: merchant.bearer,
    });
    expect(seen.json()).toMatchObject({ status: 'rejected', rejectionReason: 'not clear text' });

    await step(page, 'merchant-sees-reason', async () => {
      await signOut(page);
      await signIn(page, 'Merchant', registration.userName, registration.password);
      await page.goto(`${site.url}/#/coupons`);
      const row = page.getByRole('row').filter({ hasText: title });
      await row.getByText('not clear text').waitFor();
      await row.getByText('Rejected').waitFor();
    });
    await page.close();
  });

  it('the queue pages in fives with a numbered pager; bulk reject asks one reason, bulk approve one confirmation', async () => {
    const registration = await registerMerchant();
    const merchant = await apiSession(registration);
    const ids: number[] = [];
    for (let index = 1; index <= 6; index += 1) {
      ids.push(await submitCoupon(market, merchant, { title: `Bulk offer ${index}` }));
    }
    const page = await browser.newPage();
    const rows = page.locator('tbody tr');

    await step(page, 'pager', async () => {
      await signIn(page, 'Admin', 'admin', DEVELOPMENT_ADMIN_PASSWORD);
      await page.goto(`${site.url}/#/coupon-reviews`);
      await page.getByText('Bulk offer 1', { exact: true }).waitFor();
      await expect(rows.count()).resolves.toBe(5);
      const pager = page.getByRole('navigation', { name: 'Pages' });
      await pager.getByRole('button', { name: 'Page 2' }).waitFor();
      await pager.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Bulk offer 6', { exact: true }).waitFor();
      await expect(rows.count()).resolves.toBe(1);
      await pager.getByRole('button', { name: 'Previous' }).click();
      await page.getByText('Bulk offer 1', { exact: true }).waitFor();
    });

    await step(page, 'bulk-reject', async () => {
      await page.getByRole('checkbox', { name: 'Select all' }).check();
      await page.getByRole('button', { name: 'Reject', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(/Reason/).fill('Artwork is blurred');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await page.getByText('5 coupons rejected.').waitFor();
      await page.getByText('Bulk offer 6', { exact: true }).waitFor();
      await expect(rows.count()).resolves.toBe(1);
    });

    await step(page, 'bulk-approve', async () => {
      await page.getByRole('checkbox', { name: 'Select this row' }).check();
      await page.getByRole('button', { name: 'Approve', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
      await page.getByText('1 coupon approved.').waitFor();
      await page.getByText('No coupons waiting for approval.').waitFor();
    });

    const statuses = await Promise.all(
      ids.map(async (id) => {
        const record = await market.api.http.inject({
          method: 'GET',
          url: `/api/admin/coupons/${id}`,
          headers: market.admin,
        });
        return [record.json().status, record.json().rejectionReason];
      }),
    );
    expect(statuses).toEqual([
      ...Array.from({ length: 5 }, () => ['rejected', 'Artwork is blurred']),
      ['live', null],
    ]);
    await page.close();
  });

  it('shows the merchant and, in the live tab, the admins how shoppers use a coupon: reveals, votes, success rate', async () => {
    const registration = await registerMerchant();
    const merchant = await apiSession(registration);
    const title = `Used offer ${Date.now()}`;
    const couponId = await submitCoupon(market, merchant, { title });
    expect((await approve(market, couponId)).statusCode).toBe(200);
    await untilListed(market, couponId);
    const shopper = (address: string) => ({ 'x-forwarded-for': address });
    for (const address of ['10.8.0.1', '10.8.0.2']) {
      await market.api.http.inject({
        method: 'POST',
        url: `/api/coupons/${couponId}/reveal`,
        headers: shopper(address),
      });
    }
    for (const [index, worked] of [true, true, false, true, true].entries()) {
      const voted = await market.api.http.inject({
        method: 'POST',
        url: `/api/coupons/${couponId}/votes`,
        headers: shopper(`10.8.1.${index}`),
        payload: { worked },
      });
      expect(voted.statusCode).toBe(202);
    }
    await untilEventsProcessed(market);

    const figuresOf = async (page: Page) => {
      const headers = await page.locator('thead th').allTextContents();
      const cells = await page.locator('tbody tr', { hasText: title }).locator('td').allTextContents();
      return Object.fromEntries(
        ['Reveals', 'Votes', 'Success rate (%)'].map((name) => [name, cells[headers.indexOf(name)]]),
      );
    };
    const page = await browser.newPage();
    await step(page, 'merchant-usage', async () => {
      await signIn(page, 'Merchant', registration.userName, registration.password);
      await page.goto(`${site.url}/#/coupons`);
      await page.getByText(title).waitFor();
      expect(await figuresOf(page)).toEqual({ Reveals: '2', Votes: '5', 'Success rate (%)': '80' });
      await signOut(page);
    });
    await step(page, 'admin-usage', async () => {
      await signIn(page, 'Admin', 'admin', DEVELOPMENT_ADMIN_PASSWORD);
      await page.goto(`${site.url}/#/coupon-reviews?filter=${encodeURIComponent('{"status":"live"}')}`);
      await page.getByText(title).waitFor();
      expect(await figuresOf(page)).toEqual({ Reveals: '2', Votes: '5', 'Success rate (%)': '80' });
      // The pending tab is about reviewing, not usage.
      await page.goto(`${site.url}/#/coupon-reviews?filter=${encodeURIComponent('{"status":"pending"}')}`);
      await page.locator('thead').waitFor();
      expect(await page.locator('thead th').allTextContents()).not.toContain('Votes');
    });
    await page.close();
  });

  it('the queue shows what each coupon gives: its discount value in rupees, its percentage and description', async () => {
    const registration = await registerMerchant();
    const merchant = await apiSession(registration);
    const title = `Festive kurtas ${Date.now() % 100000}`;
    const description = 'Flat discount on ethnic wear above ₹2,999.';
    await submitCoupon(market, merchant, { title, description, discountValue: '1500', percentage: '20' });
    const page = await browser.newPage();
    await step(page, 'queue-discount', async () => {
      await signIn(page, 'Admin', 'admin', DEVELOPMENT_ADMIN_PASSWORD);
      await page.goto(`${site.url}/#/coupon-reviews`);
      await page.getByRole('row').filter({ hasText: title }).waitFor();
      const headers = await page.locator('thead th').allTextContents();
      const cells = page.locator('tbody tr', { hasText: title }).locator('td');
      // Each cell shows its parts as lines of their own.
      const lines = (name: string) => cells.nth(headers.indexOf(name)).locator('p').allTextContents();
      await expect(lines('Offer')).resolves.toEqual([title, description]);
      await expect(lines('Discount')).resolves.toEqual(['₹1,500.00', '20%']);
      expectAccessible(await seriousViolations(page));
    });
    await page.close();
  });

  it("while a coupon is being approved its buttons are disabled and read 'Processing…'", async () => {
    const registration = await registerMerchant();
    const merchant = await apiSession(registration);
    const title = `Slow approval ${Date.now() % 100000}`;
    await submitCoupon(market, merchant, { title });
    const page = await browser.newPage();
    // The approval request waits at the browser until the buttons have been checked.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/admin/coupons/*/approve', async (route) => {
      await released;
      await route.continue();
    });
    await step(page, 'processing', async () => {
      await signIn(page, 'Admin', 'admin', DEVELOPMENT_ADMIN_PASSWORD);
      await page.goto(`${site.url}/#/coupon-reviews`);
      const row = page.getByRole('row').filter({ hasText: title });
      await row.getByRole('button', { name: `Approve ${title}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
      const approve = row.getByRole('button', { name: `Approve ${title}` });
      const reject = row.getByRole('button', { name: `Reject ${title}` });
      await approve.filter({ hasText: 'Processing…' }).waitFor();
      await reject.filter({ hasText: 'Processing…' }).waitFor();
      await expect(approve.isDisabled()).resolves.toBe(true);
      await expect(reject.isDisabled()).resolves.toBe(true);
      release();
      await page.getByText('Coupon approved.').waitFor();
    });
    await page.close();
  });
});
