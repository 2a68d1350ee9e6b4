import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEMO_HOME, demoContentSeed } from '@offers/api/demo/content';
import { demoCouponsSeed } from '@offers/api/demo/coupons';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { ARTIFACTS, launchBrowser, type WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { inject } from '../support/storefront.js';
import { eventually } from '../support/test-environment.js';
import { seriousViolations, serveSite, untilAllListed, visit } from '../support/web-public.js';

/**
 * The home page as shoppers get it: the admins' texts in the address's language (English where a
 * translation is missing), in the server's HTML and after the app takes over, and a first screen
 * that holds the search, the hero and, on a desktop, the top stores, without moving as it loads.
 */

const BROWSER_TEST_MS = 120_000;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const LANGUAGES = [
  ['/', 0],
  ['/hi/', 1],
  ['/te/', 2],
] as const;
const [FESTIVE] = DEMO_HOME.heroes as [(typeof DEMO_HOME.heroes)[number]];
/** A slide an admin gave in English only. */
const ENGLISH_ONLY = { title: 'Monsoon rainwear from ₹299', altText: 'Umbrellas in bright colours' };

let market: Marketplace;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('web_public_home');
  const { dataSource } = market.api;
  await demoContentSeed.run(dataSource, market.test.environment);
  await demoCouponsSeed.run(dataSource, market.test.environment);
  const photo = await sharp({ create: { width: 1600, height: 500, channels: 3, background: '#0f4c5c' } })
    .jpeg()
    .toBuffer();
  const hero = await inject(market, 'POST', '/api/admin/heroes', market.admin, {
    merchantUrl: 'https://rain.example.in',
    sortOrder: 9,
    ...ENGLISH_ONLY,
    image: `data:image/jpeg;base64,${photo.toString('base64')}`,
  });
  if (hero.statusCode !== 201) throw new Error(`hero not saved: ${hero.body}`);
  await untilAllListed(market, 18);
  // The projection's document, not GET /api/home, so no answer is cached before the pages ask.
  await eventually(
    async () => {
      const [row] = await dataSource.query('SELECT document FROM home_content WHERE id = 1');
      return row.document.heroes.length === 4;
    },
    'the home content to be built',
    60_000,
  );
  site = await serveSite(market);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

/** A page of its own viewport whose console errors and uncaught errors are collected. */
async function inBrowser(
  name: string,
  viewport: { width: number; height: number },
  steps: (page: Page, problems: string[]) => Promise<void>,
) {
  const context = await browser.newContext({ baseURL: site.url, viewport });
  context.setDefaultTimeout(10_000);
  // Merchants' own sites are outside this machine.
  await context.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>shop</title>' }),
  );
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  try {
    await steps(page, problems);
  } catch (error) {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `home-${name}.png`) }).catch(() => undefined);
    throw error;
  } finally {
    await context.close();
  }
}

/** The rendered markup, without the JSON the page carries for the app (every language is in it). */
async function renderedMarkup(path: string): Promise<string> {
  const response = await fetch(`${site.url}${path}`);
  expect(response.status).toBe(200);
  return (await response.text()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '');
}

const shownSlide = (page: Page) => page.locator('.carousel-slide:not([hidden])');

describe('the admins’ texts in the visitor’s language', () => {
  it.each(LANGUAGES)('are in the HTML the server renders for %s', async (path, index) => {
    const markup = await renderedMarkup(path);

    expect(markup).toContain(`>${DEMO_HOME.flashText[index]}</a>`);
    expect(markup).toContain(`>${FESTIVE.title[index]}</span>`);
    expect(markup).toContain(`alt="${FESTIVE.altText[index]}"`);
    expect(markup).toContain(`>${DEMO_HOME.seasonalOffers[0]!.title[index]}</span>`);
    expect(markup).toContain(`alt="${DEMO_HOME.bestOffer.name[index]}"`);
    // Given in English only: English in every language.
    expect(markup).toContain(`>${ENGLISH_ONLY.title}</span>`);
    expect(markup).toContain(`alt="${ENGLISH_ONLY.altText}"`);
    for (const other of [0, 1, 2].filter((language) => language !== index)) {
      expect(markup).not.toContain(FESTIVE.title[other]);
      expect(markup).not.toContain(DEMO_HOME.flashText[other]);
    }
  });

  it(
    'stay in that language once the app takes over, and follow the language menu',
    () =>
      inBrowser('languages', DESKTOP, async (page, problems) => {
        await visit(page, '/hi/');
        await page.getByRole('link', { name: DEMO_HOME.flashText[1] }).waitFor();
        const hero = shownSlide(page).getByRole('link', {
          name: `${FESTIVE.altText[1]} ${FESTIVE.title[1]}`,
        });
        await expect(hero.locator('img').getAttribute('alt')).resolves.toBe(FESTIVE.altText[1]);
        await hero.getByText(FESTIVE.title[1], { exact: true }).waitFor();

        await page.getByLabel('भाषा').selectOption('te');
        await page.getByRole('link', { name: DEMO_HOME.flashText[2] }).waitFor();
        await shownSlide(page).getByText(FESTIVE.title[2], { exact: true }).waitFor();
        await page.getByLabel('భాష').selectOption('en');
        await page.getByRole('link', { name: DEMO_HOME.flashText[0] }).waitFor();
        await expect(shownSlide(page).locator('img').getAttribute('alt')).resolves.toBe(FESTIVE.altText[0]);
        // The slide given in English only, in Hindi.
        await page.getByLabel('Language').selectOption('hi');
        await page.getByRole('link', { name: DEMO_HOME.flashText[1] }).waitFor();
        const last = page.locator('.carousel-slide').nth(3);
        await expect(last.locator('img').getAttribute('alt')).resolves.toBe(ENGLISH_ONLY.altText);
        await expect(last.locator('.hero-title').textContent()).resolves.toBe(ENGLISH_ONLY.title);
        expect(problems).toEqual([]);
      }),
    BROWSER_TEST_MS,
  );
});

/** Whether the element lies wholly within the first screen. */
async function inFirstScreen(element: Locator, viewport: { width: number; height: number }) {
  const box = await element.boundingBox();
  expect(box).not.toBeNull();
  const { x, y, width, height } = box!;
  return x >= 0 && y >= 0 && x + width <= viewport.width && y + height <= viewport.height;
}

describe('the first screen', () => {
  it.each([
    ['a phone', PHONE],
    ['a desktop', DESKTOP],
  ])(
    'on %s holds the search box and the hero (and on a desktop the top stores), and nothing moves',
    (name, viewport) =>
      inBrowser(`first-screen-${viewport.width}`, viewport, async (page, problems) => {
        // Every layout shift from the first paint on, as the CLS metric adds them up.
        await page.addInitScript(`
          window.__shifts = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shifts += entry.value;
          }).observe({ type: 'layout-shift', buffered: true });
        `);
        await visit(page, '/');
        const hero = shownSlide(page).locator('img');
        // Every image loaded at once has arrived (lazy ones below the first screen may wait).
        await page.waitForFunction(
          "Array.from(document.images).every((image) => image.loading === 'lazy' || image.complete)",
        );
        const search = page.locator('input[type=search]:visible');
        await expect(search.count()).resolves.toBe(1);
        expect([name, 'search', await inFirstScreen(search, viewport)]).toEqual([name, 'search', true]);
        expect([name, 'hero', await inFirstScreen(hero, viewport)]).toEqual([name, 'hero', true]);
        await shownSlide(page).getByText(FESTIVE.title[0], { exact: true }).waitFor();
        expect([
          name,
          'title',
          await inFirstScreen(shownSlide(page).locator('.hero-title'), viewport),
        ]).toEqual([name, 'title', true]);
        if (viewport === DESKTOP) {
          const stores = page.getByRole('region', { name: 'Top stores' });
          expect(await inFirstScreen(stores, viewport)).toBe(true);
          await expect(stores.getByRole('link').count()).resolves.toBe(7);
          // The hero leaves room: well under half of the first screen.
          expect((await hero.boundingBox())!.height).toBeLessThan(viewport.height / 2);
        }
        // The search box works from here.
        await search.fill('serum');
        await search.press('Enter');
        await page.waitForURL(/\/coupons\?q=serum/);
        expect(await page.evaluate('window.__shifts')).toBeLessThanOrEqual(0.05);
        expect(problems).toEqual([]);
      }),
    BROWSER_TEST_MS,
  );
});

describe('accessibility', () => {
  it.each([
    ['/', DESKTOP],
    ['/hi/', PHONE],
    ['/te/', DESKTOP],
  ] as const)(
    'finds no serious or critical axe violation on %s',
    (path, viewport) =>
      inBrowser(`axe-${path.replace(/\//g, '')}`, viewport, async (page, problems) => {
        await visit(page, path);
        await page.locator('.seasonal-strip li').first().waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
      }),
    BROWSER_TEST_MS,
  );
});
