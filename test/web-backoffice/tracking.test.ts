import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TRACKING } from '@offers/api/rules';
import type { Browser } from 'playwright-core';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { launchBrowser, seriousViolations, serveWebApp, step, type WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';

let market: Marketplace;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('backoffice_tracking');
  site = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

describe("back-office: a merchant's tracking settings", () => {
  it('shows the sub-id, cookie window and postback settings, checks them and saves them', async () => {
    const { registration, session } = await registerAndSignInMerchant(market.api.baseUrl);
    const page = await browser.newPage();
    await page.goto(`${site.url}/#/login`);
    await page.getByLabel('Username').fill(registration.userName);
    await page.getByLabel('Password', { exact: true }).fill(registration.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(/^Welcome, /).waitFor();

    await step(page, 'tracking', async () => {
      await page.getByRole('menuitem', { name: 'Tracking' }).click();
      await expect(page.getByTestId('arrival-example').textContent()).resolves.toMatch(
        /^https:\/\/glow\.example\.in\/\?subid=[\w-]{22}$/,
      );
      await page.getByText('/api/postbacks/purchases').waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByLabel('Sub-id parameter').fill('aff sub');
      await page.getByLabel('Cookie window (days)').fill('120');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText(TRACKING.subIdParam.invalid).waitFor();
      await page.getByText(TRACKING.cookieWindowDays.invalid).waitFor();

      await page.getByLabel('Sub-id parameter').fill('aff_sub');
      await page.getByLabel('Cookie window (days)').fill('45');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Tracking settings saved.').waitFor();
      await expect(page.getByTestId('arrival-example').textContent()).resolves.toMatch(/\?aff_sub=/);
    });
    const saved = await market.api.http.inject({
      method: 'GET',
      url: '/api/merchant/tracking',
      headers: session.bearer,
    });
    expect(saved.json()).toEqual({ subIdParam: 'aff_sub', cookieWindowDays: 45 });

    await step(page, 'tracking-hindi', async () => {
      await page.getByRole('button', { name: 'English', exact: true }).click();
      await page.getByRole('menuitem', { name: 'हिन्दी' }).click();
      await page.getByRole('heading', { name: 'ट्रैकिंग', level: 1 }).waitFor();
      await page.getByText('ख़रीदारी पोस्टबैक').waitFor();
    });
    await page.close();
  });
});
