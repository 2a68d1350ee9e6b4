import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible } from '../support/accessibility.js';
import { signInAsAdmin as signInAsDevelopmentAdmin } from '../support/backoffice.js';
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

const signInAsAdmin = (page: Page) => signInAsDevelopmentAdmin(page, site.url);

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
      await page.getByLabel('Title (English)').fill('Diwali glow');
      await page.getByLabel('Alt text (English)').fill('Diyas and serum bottles');
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

  it('an admin gives a hero its title and alt text in English, Hindi and Telugu, and banners their positions by name', async () => {
    const page = await browser.newPage();
    await step(page, 'hero-languages', async () => {
      await signInAsAdmin(page);
      await page.goto(`${site.url}/#/heroes/create`);
      await page.locator('input[type=file]').setInputFiles({
        name: 'hero.png',
        mimeType: 'image/png',
        buffer: ONE_PIXEL_PNG,
      });
      const texts = {
        'Title (English)': 'Monsoon sale',
        'Title (Hindi)': 'मानसून सेल',
        'Title (Telugu)': 'వర్షాకాలం సేల్',
        'Alt text (English)': 'Umbrellas in bright colours',
        'Alt text (Hindi)': 'चमकीले रंगों के छाते',
        'Alt text (Telugu)': 'ముదురు రంగుల గొడుగులు',
      };
      for (const [label, text] of Object.entries(texts)) await page.getByLabel(label).fill(text);
      await expect(page.getByLabel('Title (Hindi)').getAttribute('lang')).resolves.toBe('hi');
      // Over its length, the Telugu title is refused in the browser before anything is sent.
      await page.getByLabel('Title (Telugu)').fill('అ'.repeat(81));
      await page.getByLabel('Merchant URL').fill('https://rain.example.in');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Must be 80 characters or less').waitFor();
      await page.getByLabel('Title (Telugu)').fill(texts['Title (Telugu)']);
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('cell', { name: 'Monsoon sale' }).waitFor();

      // Banners: the positions by name in the form, the list and its filter.
      await page.goto(`${site.url}/#/banners/create`);
      await page.getByRole('combobox', { name: 'Position' }).click();
      await expect(page.getByRole('option').allTextContents()).resolves.toEqual([
        'Category page',
        'Top of coupons',
        'Best offers',
        'Left',
        'Right',
      ]);
      await page.getByRole('option', { name: 'Top of coupons' }).click();
      await page.locator('input[type=file]').setInputFiles({
        name: 'banner.png',
        mimeType: 'image/png',
        buffer: ONE_PIXEL_PNG,
      });
      await page.getByLabel('Title (English)').fill('Coupons checked today');
      await page.getByLabel('Alt text (English)').fill('A tag with a tick');
      await page.getByLabel('Merchant URL').fill('https://tags.example.in');
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Save' }).click();
      const row = page.getByRole('row').filter({ hasText: 'Coupons checked today' });
      await row.getByText('Top of coupons').waitFor();
      await expect(row.getByText('Tc', { exact: true }).count()).resolves.toBe(0);
      await page.getByRole('combobox', { name: 'Position' }).click();
      await page.getByRole('option', { name: 'Top of coupons' }).waitFor();
      await page.keyboard.press('Escape');

      // In Hindi, the labels and the position names are Hindi.
      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('menuitem', { name: 'हिन्दी' }).click();
      await row.getByText('कूपन के ऊपर').waitFor();
      await page.goto(`${site.url}/#/banners/create`);
      await page.getByLabel('शीर्षक (तेलुगु)').waitFor();
      await page.getByRole('button', { name: 'हिन्दी' }).click();
      await page.getByRole('menuitem', { name: 'English' }).click();
    });
    const home = await eventually(async () => {
      const body = (await market.api.http.inject({ method: 'GET', url: '/api/home' })).json();
      return body.heroes.some((hero: { title: string }) => hero.title === 'Monsoon sale') ? body : undefined;
    }, 'the hero on the home page');
    expect(home.heroes.find((hero: { title: string }) => hero.title === 'Monsoon sale')).toMatchObject({
      titleHi: 'मानसून सेल',
      titleTe: 'వర్షాకాలం సేల్',
      altText: 'Umbrellas in bright colours',
      altTextHi: 'चमकीले रंगों के छाते',
      altTextTe: 'ముదురు రంగుల గొడుగులు',
    });
    await eventually(async () => {
      const top = (await market.api.http.inject({ method: 'GET', url: '/api/banners?position=Tc' })).json();
      return top.some((banner: { title: string }) => banner.title === 'Coupons checked today');
    }, 'the banner at its position');
    await page.close();
  }, 120_000);

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
