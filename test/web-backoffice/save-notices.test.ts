import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { DEVELOPMENT_ADMIN_PASSWORD } from '@offers/api/demo';
import type { Browser, Page } from 'playwright-core';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { signInToBackoffice } from '../support/backoffice.js';
import { launchBrowser, serveWebApp, step, type WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';
import { createCategory, submitProduct } from '../support/storefront.js';

let market: Marketplace;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('backoffice_save_notices');
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

/** Chooses a language from the app bar's button, which is named by the language in use. */
async function chooseLanguage(page: Page, from: string, to: string) {
  await page.getByRole('button', { name: from, exact: true }).click();
  await page.getByRole('menuitem', { name: to }).click();
  await page.getByRole('button', { name: to, exact: true }).waitFor();
}

describe('back-office: every save says what was saved, by name, in the chosen language', () => {
  it("a merchant's category, coupon, product, store page and profile", async () => {
    const { registration, session } = await registerAndSignInMerchant(market.api.baseUrl);
    const couponId = await submitCoupon(market, session, { title: 'Diwali 20% off' });
    const categoryId = await createCategory(market, session, 'Serums');
    const productId = await submitProduct(market, session, categoryId, { productName: 'Vitamin C serum' });
    const page = await browser.newPage();
    await signIn(page, 'Merchant', registration.userName, registration.password);

    await step(page, 'category-saved', async () => {
      await page.goto(`${site.url}/#/merchant-categories/create`);
      await page.getByLabel('Category name').fill('Face care');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Category "Face care" saved.').waitFor();
      await page.goto(`${site.url}/#/merchant-categories/${categoryId}`);
      await page.getByLabel('Category name').fill('Night serums');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Category "Night serums" saved.').waitFor();
    });

    await step(page, 'coupon-saved', async () => {
      await page.goto(`${site.url}/#/coupons/${couponId}`);
      await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Diwali 25% off');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Coupon "Diwali 25% off" saved.').waitFor();
    });

    await step(page, 'product-saved', async () => {
      await page.goto(`${site.url}/#/products/${productId}`);
      await page.getByLabel('Product name').fill('Vitamin C night serum');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Product "Vitamin C night serum" saved.').waitFor();
    });

    await step(page, 'store-saved-in-hindi', async () => {
      await page.getByRole('menuitem', { name: 'My store page' }).click();
      await chooseLanguage(page, 'English', 'हिन्दी');
      await page.getByLabel('स्टोर नाम').fill('Glow House');
      await page.getByRole('button', { name: 'सहेजें' }).click();
      await page.getByText('स्टोर "Glow House" सहेजा गया।').waitFor();
    });

    await step(page, 'profile-saved-in-telugu', async () => {
      // At the top of a page, where the app bar shows.
      await page.goto(`${site.url}/#/profile`);
      await chooseLanguage(page, 'हिन्दी', 'తెలుగు');
      await page.getByLabel('చిరునామా').fill('9 Camac Street, Kolkata');
      await page.getByRole('button', { name: 'సేవ్ చేయండి' }).click();
      await page.getByText('ప్రొఫైల్ సేవ్ చేయబడింది.').waitFor();
      await chooseLanguage(page, 'తెలుగు', 'English');
    });
    await page.close();
  });

  it("an admin's slot and campaign", async () => {
    const page = await browser.newPage();
    await signIn(page, 'Admin', 'admin', DEVELOPMENT_ADMIN_PASSWORD);

    await step(page, 'slot-saved', async () => {
      await page.goto(`${site.url}/#/slots/create`);
      await page.getByLabel('Name').fill('Festive gold');
      await page.getByLabel('Capacity').fill('4');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Slot "Festive gold" saved.').waitFor();
    });

    await step(page, 'campaign-saved-in-telugu', async () => {
      await page.goto(`${site.url}/#/campaigns/create`);
      await chooseLanguage(page, 'English', 'తెలుగు');
      await page.locator('input[name=subject]').fill('Diwali deals');
      await page.locator('textarea[name=body]').fill('The best festive offers of the week.');
      await page.getByRole('button', { name: 'సేవ్ చేయండి' }).click();
      await page.getByText('ప్రచారం "Diwali deals" సేవ్ చేయబడింది.').waitFor();
      await chooseLanguage(page, 'తెలుగు', 'English');
    });
    await page.close();
  });
});
