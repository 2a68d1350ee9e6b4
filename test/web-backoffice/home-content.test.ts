import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { DEVELOPMENT_ADMIN_PASSWORD } from '../../api/src/identity/admin-seed.js';
import { launchBrowser, seriousViolations, serveWebApp, step, type WebApp } from '../support/browser.js';
import { ONE_PIXEL_PNG } from '../support/coupons.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

let market: Marketplace;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('backoffice_content');
  site = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

function expectAccessible(violations: Awaited<ReturnType<typeof seriousViolations>>) {
  expect(
    violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

async function signInAsAdmin(page: Page) {
  await page.goto(`${site.url}/#/login`);
  await page.getByRole('tab', { name: 'Admin' }).click();
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password', { exact: true }).fill(DEVELOPMENT_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(/^Welcome, /).waitFor();
}

describe('back-office: languages and home-page content', () => {
  it('the chosen language applies at once and is remembered on the next visit', async () => {
    const page = await browser.newPage();
    await step(page, 'language', async () => {
      await page.goto(`${site.url}/#/login`);
      // The language menu shows the current language.
      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('menuitem', { name: 'తెలుగు' }).click();
      await page.getByRole('heading', { name: 'బ్యాక్-ఆఫీస్‌లో సైన్ ఇన్ చేయండి' }).waitFor();
      await expect(page.evaluate('document.documentElement.lang')).resolves.toBe('te');
      expectAccessible(await seriousViolations(page));
      await page.reload();
      await page.getByRole('heading', { name: 'బ్యాక్-ఆఫీస్‌లో సైన్ ఇన్ చేయండి' }).waitFor();
      // The sign-in rules speak Telugu too.
      await page.getByRole('tab', { name: 'వ్యాపారి' }).click();
      await page.getByLabel('వినియోగదారు పేరు').fill('ab');
      await page.getByLabel('పాస్‌వర్డ్', { exact: true }).focus();
      await page.getByText('వినియోగదారు పేరు కనీసం 4 అక్షరాలు ఉండాలి.').waitFor();
    });
    await page.close();
  });

  it('an admin uploads a hero image with a preview; the server refusal lands on its field', async () => {
    const page = await browser.newPage();
    await step(page, 'hero-upload', async () => {
      await signInAsAdmin(page);
      await page.goto(`${site.url}/#/heroes/create`);
      await page.locator('input[type=file]').setInputFiles({
        name: 'hero.png',
        mimeType: 'image/png',
        buffer: ONE_PIXEL_PNG,
      });
      await page.locator('img[src^="blob:"]').waitFor();
      // The browser's check lets this through; the API's (http or https only) does not.
      await page.getByLabel('Merchant URL').fill('ftp://glow.example.in');
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Enter a valid website address (http or https).').waitFor();
      await expect(page.url()).toContain('/heroes/create');

      await page.getByLabel('Merchant URL').fill('https://glow.example.in/diwali');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.locator('td.column-merchantUrl', { hasText: 'https://glow.example.in/diwali' }).waitFor();
      expectAccessible(await seriousViolations(page));
    });
    await eventually(async () => {
      const home = await market.api.http.inject({ method: 'GET', url: '/api/home' });
      return home
        .json()
        .heroes.some(
          (hero: { merchantUrl: string }) => hero.merchantUrl === 'https://glow.example.in/diwali',
        );
    }, 'the hero on the home page');
    await page.close();
  });

  it('an admin adds a paid slot with its price in rupees', async () => {
    const page = await browser.newPage();
    await step(page, 'slot', async () => {
      await signInAsAdmin(page);
      await page.goto(`${site.url}/#/slots/create`);
      await page.getByLabel('Name').fill('Diwali spotlight');
      await page.getByLabel('Paid').check();
      await page.getByLabel('Price (₹)').fill('499.50');
      await page.getByLabel('Capacity').fill('3');
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('row').filter({ hasText: 'Diwali spotlight' }).getByText('499.50').waitFor();
    });
    const slots = await market.api.http.inject({
      method: 'GET',
      url: '/api/admin/slots',
      headers: market.admin,
    });
    expect(slots.json()).toContainEqual(
      expect.objectContaining({ name: 'Diwali spotlight', kind: 'paid', price: '499.50', capacity: 3 }),
    );
    await page.close();
  });
});
