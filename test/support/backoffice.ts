import { DEVELOPMENT_ADMIN_PASSWORD } from '@offers/api/demo';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, serveWebApp, type WebApp } from './browser.js';
import { type Marketplace, type MarketplaceOptions, startMarketplace } from './marketplace.js';

/** Signs in on the back-office's login page (its Merchant or Admin tab) and waits for the welcome. */
export async function signInToBackoffice(
  page: Page,
  siteUrl: string,
  tab: 'Merchant' | 'Admin',
  username: string,
  password: string,
): Promise<void> {
  await page.goto(`${siteUrl}/#/login`);
  await page.getByRole('tab', { name: tab }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(/^Welcome, /).waitFor();
}

/** Signs in as the development admin every test database is seeded with. */
export const signInAsAdmin = (page: Page, siteUrl: string): Promise<void> =>
  signInToBackoffice(page, siteUrl, 'Admin', 'admin', DEVELOPMENT_ADMIN_PASSWORD);

/** A marketplace with the back-office's production build in front of it, and the system Chromium. */
export interface BackofficeSite {
  market: Marketplace;
  site: WebApp;
  browser: Browser;
  close(): Promise<void>;
}

export async function startBackofficeSite(
  name: string,
  options: MarketplaceOptions = {},
): Promise<BackofficeSite> {
  const market = await startMarketplace(name, options);
  const site = await serveWebApp('web-backoffice', market.api.baseUrl);
  const browser = await launchBrowser();
  return {
    market,
    site,
    browser,
    async close() {
      await browser.close();
      await site.close();
      await market.close();
    },
  };
}
