import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEVELOPMENT_ADMIN_PASSWORD } from '@offers/api/demo';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible } from '../support/accessibility.js';
import { merchantRegistration } from '../support/accounts.js';
import { send } from '../support/api-app.js';
import { signInToBackoffice } from '../support/backoffice.js';
import { launchBrowser, seriousViolations, serveWebApp, step, type WebApp } from '../support/browser.js';
import { ONE_PIXEL_PNG } from '../support/coupons.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';

let market: Marketplace;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('backoffice_products');
  site = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

const signIn = (page: Page, tab: 'Merchant' | 'Admin', username: string, password: string) =>
  signInToBackoffice(page, site.url, tab, username, password);

async function signOut(page: Page) {
  await page.locator('.RaUserMenu-userButton').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
}

describe('back-office: a product from a merchant to review and back', () => {
  it('the admin rejects a product with a reason and advised changes; the merchant sees both', async () => {
    const registration = merchantRegistration();
    const registered = await send(market.api.baseUrl, {
      method: 'POST',
      url: '/api/auth/merchants/register',
      payload: registration,
    });
    expect(registered.statusCode).toBe(201);
    const page = await browser.newPage();
    const productName = `Rose face mist ${Date.now() % 100000}`;

    await step(page, 'merchant-category-and-product', async () => {
      await signIn(page, 'Merchant', registration.userName, registration.password);
      await page.goto(`${site.url}/#/merchant-categories/create`);
      await page.getByLabel('Category name').fill('Face care');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Category "Face care" saved.').waitFor();

      await page.goto(`${site.url}/#/products/create`);
      await page.getByLabel('Category').click();
      await page.getByRole('option', { name: 'Face care' }).click();
      await page.getByLabel('Product name').fill(productName);
      await page.getByLabel('Price (₹)').fill('1299.50');
      await page.locator('input[type=file]').first().setInputFiles({
        name: 'mist.png',
        mimeType: 'image/png',
        buffer: ONE_PIXEL_PNG,
      });
      await page.locator('img[src^="blob:"]').waitFor();
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.locator('td.column-productName', { hasText: productName }).waitFor();
      await signOut(page);
    });

    await step(page, 'admin-rejects-product', async () => {
      await signIn(page, 'Admin', 'admin', DEVELOPMENT_ADMIN_PASSWORD);
      await page.goto(`${site.url}/#/product-reviews`);
      const row = page.getByRole('row').filter({ hasText: productName });
      await row.waitFor();
      expectAccessible(await seriousViolations(page));
      await row.getByRole('button', { name: `Reject ${productName}` }).click();
      const dialog = page.getByRole('dialog');
      // Cancelling the reason rejects nothing.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row.getByRole('button', { name: `Reject ${productName}` }).click();
      await expect(dialog.getByLabel(/Reason/).inputValue()).resolves.toBe('not clear text');
      await dialog.getByLabel(/Reason/).fill('The photo is blurred');
      await dialog.getByRole('button', { name: 'Next' }).click();
      await expect(dialog.getByLabel('Advised changes').inputValue()).resolves.toBe('no');
      await dialog.getByLabel('Advised changes').fill('Use a sharper photo');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await page.getByText(/^Product # \d+ rejected\.$/).waitFor();
      await row.waitFor({ state: 'detached' });
      await page.getByText('No merchant products waiting for approval.').waitFor();
      await page.getByRole('tab', { name: 'Approved' }).click();
      await page.getByText('No approved products found.').waitFor();
      await signOut(page);
    });

    await step(page, 'merchant-sees-rejection', async () => {
      await signIn(page, 'Merchant', registration.userName, registration.password);
      await page.goto(`${site.url}/#/products`);
      const row = page.getByRole('row').filter({ hasText: productName });
      await row.getByText('The photo is blurred').waitFor();
      await row.getByText('Use a sharper photo').waitFor();
      await row.getByText('Rejected').waitFor();
    });
    await page.close();
  });

  it('a merchant builds the store page with a logo and uploads a product in one step', async () => {
    const registration = merchantRegistration();
    const registered = await send(market.api.baseUrl, {
      method: 'POST',
      url: '/api/auth/merchants/register',
      payload: registration,
    });
    const merchantId = registered.json().merchantId as number;
    const page = await browser.newPage();
    await step(page, 'store-page', async () => {
      await signIn(page, 'Merchant', registration.userName, registration.password);
      await page.getByRole('menuitem', { name: 'My store page' }).click();
      await page.getByLabel('Store name').fill('Glow House');
      await page.getByLabel('Tagline').fill('Skin care made in Kolkata');
      await page.locator('input[type=file]').first().setInputFiles({
        name: 'logo.png',
        mimeType: 'image/png',
        buffer: ONE_PIXEL_PNG,
      });
      await page.locator('img[src^="blob:"]').waitFor();
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Store "Glow House" saved.').waitFor();
      await page.getByRole('img', { name: 'Current image' }).waitFor();
      await expect(
        page.getByRole('link', { name: 'Open my store page' }).getAttribute('href'),
      ).resolves.toMatch(new RegExp(`/store/${merchantId}$`));
    });
    const store = await market.api.http.inject({ method: 'GET', url: `/api/merchant/store`, headers: {} });
    expect(store.statusCode).toBe(401);

    await step(page, 'quick-upload', async () => {
      await page.goto(`${site.url}/#/products`);
      await page.getByRole('link', { name: 'Quick upload (one image)' }).click();
      await page.getByLabel('Product name').fill('Neem soap');
      await page.getByLabel('Price (₹)').fill('12.345');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Price must be a number with up to 2 decimals.').waitFor();
      await page.getByText('Product image is required.').waitFor();
      await page.getByLabel('Price (₹)').fill('120');
      await page.locator('input[type=file]').setInputFiles({
        name: 'soap.png',
        mimeType: 'image/png',
        buffer: ONE_PIXEL_PNG,
      });
      await page.getByRole('button', { name: 'Save' }).click();
      const row = page.getByRole('row').filter({ hasText: 'Neem soap' });
      await row.getByText('Pending').waitFor();
      await row.getByText('120.00').waitFor();
    });
    await page.close();
  });
});
