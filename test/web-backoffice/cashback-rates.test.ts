import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storeCashback } from '@offers/api/read-models';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible } from '../support/accessibility.js';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { signInAsAdmin } from '../support/backoffice.js';
import { launchBrowser, seriousViolations, serveWebApp, step, type WebApp } from '../support/browser.js';
import { approve, type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';

let market: Marketplace;
let site: WebApp;
let browser: Browser;
let storeId: number;
let couponId: number;

beforeAll(async () => {
  market = await startMarketplace('backoffice_cashback_rates');
  const { session } = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Glow Beauty' });
  storeId = session.id;
  couponId = await submitCoupon(market, session, { title: 'Serum week' });
  expect((await approve(market, couponId)).statusCode).toBe(200);
  site = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

/** Chooses an option of one of the form's selects (a rate's kind). */
async function choose(page: Page, select: RegExp, option: string) {
  await page.getByRole('combobox', { name: select }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const cashbackOf = async () =>
  (await storeCashback(market.api.dataSource, [storeId], market.test.environment)).get(storeId)!;

describe('back-office: stores’ cashback', () => {
  it('an admin sets a store’s rates, terms and settings, sees its history, sets a coupon’s rate and accepts a feed’s proposal', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await signInAsAdmin(page, site.url);

    await step(page, 'cashback-rates-list', async () => {
      await page.getByRole('menuitem', { name: 'Cashback rates' }).click();
      await page.getByRole('cell', { name: 'Glow Beauty' }).waitFor();
      expectAccessible(await seriousViolations(page));
      await page.getByRole('cell', { name: 'Glow Beauty' }).click();
      await page.getByRole('heading', { name: 'Glow Beauty' }).waitFor();
    });

    await step(page, 'cashback-rates-edit', async () => {
      await choose(page, /^Base rate/, 'Percent');
      await page.getByRole('textbox', { name: 'Base rate (%)' }).fill('6.5');
      await page.getByRole('button', { name: 'Add' }).first().click();
      await page.getByRole('combobox', { name: 'Category', exact: true }).fill('Skin Care');
      await choose(page, /^Category rate/, 'Flat ₹');
      await page.getByRole('textbox', { name: 'Category rate (₹)' }).fill('40');
      await page.getByLabel('Terms (English)').fill('Not on gift cards.');
      await page.getByLabel('Terms (हिन्दी)').fill('गिफ्ट कार्ड पर नहीं।');
      await page.getByLabel('Exclusions (English)').fill('Wallet top-ups.');
      await page.getByLabel('Claim window (days) *').fill('45');
      await page.getByLabel('Cap per purchase (₹)').fill('500');
      await page.getByLabel('Note for the history').fill('Festive rates');
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Save' }).first().click();
      await page.getByText('The store’s cashback is saved.').waitFor();
    });
    expect(await cashbackOf()).toMatchObject({
      base: { percent: '6.50' },
      baseIsDefault: false,
      upTo: { percent: '6.50' },
      categories: [{ name: 'Skin Care', rate: { rupees: '40.00' } }],
      terms: { en: 'Not on gift cards.', hi: 'गिफ्ट कार्ड पर नहीं।', te: '' },
      exclusions: { en: 'Wallet top-ups.', hi: '', te: '' },
      claimWindowDays: 45,
      capRupees: '500.00',
    });

    await step(page, 'cashback-rates-history', async () => {
      await page.getByRole('cell', { name: 'Category: Skin Care' }).waitFor();
      await page.getByRole('cell', { name: '— → ₹40.00' }).waitFor();
      await page.getByRole('cell', { name: 'Terms and settings' }).waitFor();
      await expect(page.getByRole('cell', { name: 'admin (admin)' }).count()).resolves.toBe(3);
      await expect(page.getByRole('cell', { name: 'Festive rates' }).count()).resolves.toBe(3);
    });

    await step(page, 'cashback-rates-invalid', async () => {
      await page.getByRole('textbox', { name: 'Base rate (%)' }).fill('120');
      await page.getByLabel('Claim window (days) *').fill('91');
      await page.getByRole('button', { name: 'Save' }).first().click();
      await page.getByText(/^A rate is/).waitFor();
      await page.getByText(/^The claim window is a whole number/).waitFor();
    });
    expect((await cashbackOf()).claimWindowDays).toBe(45);

    await step(page, 'cashback-rates-coupon', async () => {
      await page.reload();
      await page.getByRole('heading', { name: 'Coupons’ own rates' }).waitFor();
      await page.getByRole('combobox', { name: 'Coupon', exact: true }).click();
      await page.getByRole('option', { name: 'Serum week' }).click();
      await choose(page, /^Coupon’s rate/, 'Percent');
      await page.getByRole('textbox', { name: 'Coupon’s rate (%)' }).fill('12');
      await page.getByRole('button', { name: 'Set the coupon’s rate' }).click();
      await page.getByText('The coupon’s rate is saved.').waitFor();
      await page.getByRole('cell', { name: '12.00%', exact: true }).waitFor();
      // In the history too.
      await page.getByRole('cell', { name: '— → 12.00%' }).waitFor();
      expectAccessible(await seriousViolations(page));
    });
    const [couponRate] = await market.api.dataSource.query(
      'SELECT rate_kind AS kind, rate_value AS value FROM coupon_cashback WHERE coupon_id = $1',
      [couponId],
    );
    expect(couponRate).toEqual({ kind: 'percent', value: '1200' });

    const source = await market.api.http.inject({
      method: 'POST',
      url: '/api/admin/feed-sources',
      headers: market.admin,
      payload: { name: 'Cuelinks India', format: 'cuelinks-json' },
    });
    await market.api.dataSource.query(
      `INSERT INTO cashback_proposals (merchant_id, source_id, payout_kind, payout_value, share_bp, rate_kind, rate_value)
       VALUES ($1, $2, 'percent', 1000, 7000, 'percent', 700)`,
      [storeId, source.json().id],
    );
    await step(page, 'cashback-proposals', async () => {
      await page.getByRole('menuitem', { name: 'Cashback proposals' }).click();
      await page.getByRole('cell', { name: 'Cuelinks India' }).waitFor();
      await page.getByRole('cell', { name: '10.00% × 70.00%' }).waitFor();
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Accept' }).click();
      await page.getByText('The proposed rate is now the store’s base rate.').waitFor();
    });
    expect((await cashbackOf()).base).toEqual({ percent: '7.00' });
  });
});
