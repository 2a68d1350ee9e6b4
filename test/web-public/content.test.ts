import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { registerAndSignInMerchant, registerAndSignInUser } from '../support/accounts.js';
import { couponForm, multipart } from '../support/coupons.js';
import { approve, listed, type Marketplace, startMarketplace } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';
import {
  ARTIFACTS,
  launchChromium,
  seriousViolations,
  serveWebPublic,
  untilAllListed,
  type WebServer,
} from '../support/web-public.js';

/**
 * The screens fed by endpoints that answer in the shapes of the shared contract (home content,
 * store pages, earnings, newsletter, contact): the browser is given those answers, with real
 * media URLs and coupons from the real API, and the screens are checked against them.
 */

const BROWSER_TEST_MS = 120_000;

let market: Marketplace;
let site: WebServer;
let browser: Browser;
let imageUrl: string;
// biome-ignore lint/suspicious/noExplicitAny: coupon cards as the API lists them
let cards: any[];

beforeAll(async () => {
  market = await startMarketplace('web_public_content');
  const { session } = await registerAndSignInMerchant(market.api.baseUrl);
  const image = await sharp({ create: { width: 960, height: 640, channels: 3, background: '#b04070' } })
    .jpeg()
    .toBuffer();
  for (let index = 0; index < 3; index += 1) {
    const { headers, payload } = multipart(couponForm({ title: `Festive deal ${index + 1}` }), {
      adPost: { name: 'ad.jpg', type: 'image/jpeg', bytes: image },
    });
    const submitted = await market.api.http.inject({
      method: 'POST',
      url: '/api/merchant/coupons',
      headers: { ...session.bearer, ...headers },
      payload,
    });
    if (submitted.statusCode !== 201) throw new Error(submitted.body);
    await approve(market, submitted.json().id);
  }
  await untilAllListed(market, 3);
  cards = (await listed(market, '&sort=newest')).data;
  imageUrl = cards[0].imageUrl;
  site = await serveWebPublic(market.api.baseUrl);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

async function inBrowser(name: string, steps: (page: Page, context: BrowserContext) => Promise<void>) {
  const context = await browser.newContext({ baseURL: site.url, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(10_000);
  await context.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>shop</title>' }),
  );
  const page = await context.newPage();
  try {
    await steps(page, context);
  } catch (error) {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true }).catch(() => undefined);
    throw error;
  } finally {
    await context.close();
  }
}

function json(page: Page | BrowserContext, pattern: string, status: number, body: unknown) {
  return page.route(pattern, (route) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) }),
  );
}

const banner = (id: number, position: string) => ({
  id,
  position,
  imageUrl,
  merchantUrl: `https://shop${id}.example.in/`,
});

function homeContent() {
  return {
    heroes: [3, 1, 2].map((n) => ({
      id: n,
      imageUrl,
      merchantUrl: `https://hero${n}.example.in/`,
      sortOrder: n,
    })),
    banners: { cat: [], Tc: [], Bo: [], left: [banner(11, 'left')], right: [banner(12, 'right')] },
    topCoupons: cards,
    seasonalOffers: [1, 2, 3, 4].map((slot) => ({
      slot,
      imageUrl,
      merchantUrl: `https://season${slot}.example.in/`,
    })),
    flashText: {
      text: 'Diwali sale: up to 70% off',
      contentType: 'text',
      position: 'toFlash',
      merchantUrl: 'https://flash.example.in/',
      imageUrl: null,
    },
    bestOfferBanner: {
      name: 'Bo',
      imageUrl,
      merchantUrl: 'https://best.example.in/',
      uploadedAt: new Date().toISOString(),
    },
  };
}

const currentSlide = (page: Page) => page.locator('.carousel-slide:not([hidden])').getAttribute('aria-label');

describe('home page content', () => {
  it(
    'shows heroes in order, banners, tiles, seasonal offers, the flash text and the best offer',
    () =>
      inBrowser('home-content', async (page) => {
        await json(page, '**/api/home', 200, homeContent());
        await page.goto('/');
        await page.getByRole('link', { name: 'Diwali sale: up to 70% off' }).waitFor();
        const heroes = page.getByRole('region', { name: 'Featured offers' });
        await expect(currentSlide(page)).resolves.toBe('Slide 1 of 3');
        await expect(
          heroes.getByRole('link', { name: 'Featured offer 1' }).getAttribute('href'),
        ).resolves.toBe('https://hero1.example.in/');
        // The first hero is fetched at once, in the width the screen needs.
        const hero = heroes.locator('img').first();
        await expect(hero.getAttribute('loading')).resolves.toBe('eager');
        await expect(hero.getAttribute('fetchpriority')).resolves.toBe('high');
        await expect(hero.getAttribute('srcset')).resolves.toBe(
          [160, 320, 480, 640, 960, 1280, 1920].map((w) => `${imageUrl}?w=${w} ${w}w`).join(', '),
        );
        await expect(page.locator('.coupon-card img').first().getAttribute('loading')).resolves.toBe('lazy');

        await expect(page.getByRole('link', { name: /^Offer banner/ }).count()).resolves.toBe(2);
        await expect(page.locator('.seasonal-strip li').count()).resolves.toBe(4);
        await page.getByRole('heading', { name: 'Seasonal Offers!' }).waitFor();
        await expect(
          page.getByRole('link', { name: 'Best offer', exact: true }).getAttribute('href'),
        ).resolves.toBe('https://best.example.in/');
        await expect(page.locator('.coupon-card').count()).resolves.toBe(3);
        await expect(page.getByRole('button', { name: 'Show more' }).count()).resolves.toBe(0);
      }),
    BROWSER_TEST_MS,
  );

  it(
    'turns the hero carousel by buttons, keys, swipe and by itself, and stops on request',
    () =>
      inBrowser('carousel', async (page) => {
        await json(page, '**/api/home', 200, homeContent());
        await page.goto('/');
        const heroes = page.getByRole('region', { name: 'Featured offers' });
        await heroes.getByRole('button', { name: 'Next slide' }).click();
        await expect(currentSlide(page)).resolves.toBe('Slide 2 of 3');
        await page.keyboard.press('ArrowRight');
        await expect(currentSlide(page)).resolves.toBe('Slide 3 of 3');
        await page.keyboard.press('ArrowRight');
        await expect(currentSlide(page)).resolves.toBe('Slide 1 of 3');
        await heroes.getByRole('button', { name: 'Previous slide' }).click();
        await expect(currentSlide(page)).resolves.toBe('Slide 3 of 3');

        // A swipe to the left shows the next slide.
        const box = (await heroes.locator('.carousel-track').boundingBox())!;
        await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2, { steps: 5 });
        await page.mouse.up();
        await expect(currentSlide(page)).resolves.toBe('Slide 1 of 3');

        // Away from the pointer and the focus, it turns by itself.
        await page.mouse.move(5, 880);
        await page.locator('body').focus();
        await page.evaluate('document.activeElement && document.activeElement.blur()');
        await eventually(
          async () => (await currentSlide(page)) === 'Slide 2 of 3',
          'the carousel to turn',
          8_000,
        );
        await heroes.getByRole('button', { name: 'Pause' }).click();
        await heroes.getByRole('button', { name: 'Play' }).waitFor();
      }),
    BROWSER_TEST_MS,
  );

  it(
    'shows the seasonal offers three at a time on a mid-size screen, turned by its buttons',
    () =>
      inBrowser('seasonal', async (page) => {
        await page.setViewportSize({ width: 900, height: 900 });
        await json(page, '**/api/home', 200, homeContent());
        await page.goto('/');
        const seasonal = page.getByRole('region', { name: 'Seasonal Offers!' });
        await seasonal.locator('li').first().waitFor();
        const widths = (await page.evaluate(`(() => {
          const strip = document.querySelector('.seasonal-strip');
          return [strip.clientWidth, strip.querySelector('li').getBoundingClientRect().width];
        })()`)) as [number, number];
        expect(Math.round(widths[0] / widths[1])).toBe(3);
        const scrolled = () =>
          page.evaluate("document.querySelector('.seasonal-strip').scrollLeft") as Promise<number>;
        expect(await scrolled()).toBe(0);
        await seasonal.getByRole('button', { name: 'Next slide' }).click();
        await eventually(async () => (await scrolled()) > 0, 'the seasonal offers to turn', 5_000);
      }),
    BROWSER_TEST_MS,
  );

  it(
    'shows 12 of 16 tiles with Show more, and falls back to the top offers without home content',
    () =>
      inBrowser('tiles', async (page) => {
        const sixteen = Array.from({ length: 16 }, (_, index) => ({
          ...cards[0],
          id: 1000 + index,
          title: `Tile ${index + 1}`,
        }));
        await json(page, '**/api/home', 200, { ...homeContent(), topCoupons: sixteen });
        await page.goto('/');
        await page.getByText('Tile 12', { exact: true }).waitFor();
        await expect(page.locator('.coupon-card').count()).resolves.toBe(12);
        await page.getByRole('button', { name: 'Show more' }).click();
        await expect(page.locator('.coupon-card').count()).resolves.toBe(16);

        await page.unroute('**/api/home');
        await json(page, '**/api/home', 404, { statusCode: 404, message: 'Cannot GET /api/home' });
        await page.goto('/');
        await page.getByText('Festive deal 3').waitFor();
        await page.getByText('Get up to 50% OFF new season styles, Limited Time Only').waitFor();
      }),
    BROWSER_TEST_MS,
  );
});

function storeContent() {
  const product = (id: number, productName: string, price: string) => ({
    id,
    productName,
    brand: 'Glow',
    description: 'Made in Kerala.',
    price,
    merchantUrl: `https://glow.example.in/p/${id}`,
    images: { small: imageUrl, medium: imageUrl, large: imageUrl },
  });
  return {
    merchantId: 7,
    storeName: 'Glow Cosmetics',
    storeAddress: '4 Park Street, Kolkata',
    tagline: 'Naturally radiant',
    aboutDescription: 'Skin care from the hills.',
    logoUrl: imageUrl,
    landingBannerUrl: imageUrl,
    heroBannerUrl: imageUrl,
    updatedAt: new Date().toISOString(),
    categories: [
      {
        id: 1,
        categoryName: 'Serums',
        description: null,
        products: [product(1, 'Saffron serum', '129999.50')],
      },
      {
        id: 2,
        categoryName: 'Soaps',
        description: 'Handmade.',
        products: [product(2, 'Neem soap', '49.00')],
      },
    ],
    uncategorised: [product(3, 'Gift box', '1299.00')],
  };
}

describe('banners by position', () => {
  it(
    "shows each list page's banner: cat, Tc and Bo",
    () =>
      inBrowser('banners', async (page) => {
        for (const [path, position] of [
          ['/categories', 'cat'],
          ['/top-offers', 'Tc'],
          ['/offers', 'Bo'],
        ]) {
          await page.unroute('**/api/banners?*');
          await json(page, '**/api/banners?*', 200, [banner(20, position!)]);
          const asked = page.waitForRequest(`**/api/banners?position=${position}`);
          await page.goto(path!);
          await asked;
          await expect(page.getByRole('link', { name: 'Featured offer' }).getAttribute('href')).resolves.toBe(
            'https://shop20.example.in/',
          );
        }
      }),
    BROWSER_TEST_MS,
  );
});

describe('store page', () => {
  it(
    'shows the store with its pills and prices in rupees with Indian grouping',
    () =>
      inBrowser('store', async (page) => {
        await json(page, '**/api/stores/7', 200, storeContent());
        await page.goto('/store/7');
        await page.getByRole('heading', { level: 1, name: 'Glow Cosmetics' }).waitFor();
        await page.getByText('Naturally radiant').waitFor();
        const pills = page.getByRole('navigation', { name: 'Store categories' });
        await expect(pills.getByRole('link').allTextContents()).resolves.toEqual([
          'Serums',
          'Soaps',
          'More products',
        ]);
        await page.getByText('₹1,29,999.50').waitFor();
        await page.getByText('₹49.00').waitFor();
        await page.getByText('₹1,299.00').waitFor();
        await expect(
          page.evaluate("getComputedStyle(document.querySelector('.store-pills')).position"),
        ).resolves.toBe('sticky');
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByLabel('Language').selectOption('hi');
        await page.getByRole('link', { name: 'और उत्पाद' }).waitFor();
        await page.getByText('₹1,29,999.50').waitFor();
      }),
    BROWSER_TEST_MS,
  );

  it(
    "says 'Error: ' and the reason when the store cannot be loaded",
    () =>
      inBrowser('store-error', async (page) => {
        await json(page, '**/api/stores/8', 500, { statusCode: 500, message: 'Something went wrong' });
        await page.goto('/store/8');
        await page.getByText('Error: Failed to load store').waitFor();
        await json(page, '**/api/stores/9', 404, { statusCode: 404, message: 'This store does not exist.' });
        await page.goto('/store/9');
        await page.getByText('Error: This store does not exist.').waitFor();
      }),
    BROWSER_TEST_MS,
  );
});

describe('forms against their endpoints', () => {
  it(
    'checks the contact form as it is filled, then sends it',
    () =>
      inBrowser('contact', async (page) => {
        const sent: unknown[] = [];
        await page.route('**/api/contact', (route) => {
          sent.push(route.request().postDataJSON());
          return route.fulfill({ status: 201, contentType: 'application/json', body: '{"id":1}' });
        });
        await page.goto('/contact');
        await page.getByRole('button', { name: 'Send' }).click();
        await page.getByText('Name is required.').waitFor();
        await page.getByText('Message is required.').waitFor();
        await page.getByText('Please fill all required fields correctly.').waitFor();
        await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Ravi Kumar');
        await page.getByRole('textbox', { name: 'Email', exact: true }).fill('ravi@');
        await page.getByText('Please enter a valid email address.').waitFor();
        await page.getByRole('textbox', { name: 'Email', exact: true }).fill('ravi@example.in');
        await page.getByRole('textbox', { name: 'Mobile number' }).fill('98765');
        await page.getByText('Enter valid 10-digit number.').waitFor();
        await page.getByRole('textbox', { name: 'Mobile number' }).fill('9876543210');
        await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Where is my cashback?');
        await page.getByRole('button', { name: 'Send' }).click();
        await page.getByText('Form Submitted').waitFor();
        expect(sent).toEqual([
          {
            name: 'Ravi Kumar',
            email: 'ravi@example.in',
            mobile: '9876543210',
            msg: 'Where is my cashback?',
          },
        ]);
      }),
    BROWSER_TEST_MS,
  );

  it(
    'subscribes to the newsletter',
    () =>
      inBrowser('newsletter', async (page) => {
        const sent: unknown[] = [];
        await page.route('**/api/newsletter', (route) => {
          sent.push(route.request().postDataJSON());
          return route.fulfill({ status: 202, contentType: 'application/json', body: '{}' });
        });
        await page.goto('/faq');
        const box = page.getByRole('textbox', { name: 'Email address' });
        await box.fill('asha@');
        await page.getByText('Please enter a valid email address.').waitFor();
        await box.fill('asha@example.in');
        await page.getByRole('button', { name: 'Subscribe' }).click();
        await page.getByText('Thank you! Please check your inbox').waitFor();
        expect(sent).toEqual([{ email: 'asha@example.in' }]);
      }),
    BROWSER_TEST_MS,
  );

  it(
    'shows earnings in rupees, edits the profile, and says when earnings are not there yet',
    () =>
      inBrowser('user-area', async (page, context) => {
        const { registration, session } = await registerAndSignInUser(market.api.baseUrl);
        await context.addCookies(
          session.cookie.split('; ').map((pair) => {
            const [cookieName, ...rest] = pair.split('=');
            return { name: cookieName!, value: rest.join('='), url: site.url };
          }),
        );

        await json(page, '**/api/me/earnings', 200, {
          purchaseHistory: [
            {
              couponId: 5,
              merchantId: 2,
              purchaseType: 'online',
              purchaseAmount: '12500.00',
              cashback: '1250.00',
              state: 'confirmed',
              date: '2026-11-02T10:00:00.000Z',
            },
          ],
          totals: { pending: '0.00', confirmed: '1250.00', paid: '100000.00', cancelled: '0.00' },
        });
        await page.goto('/account/earnings');
        await page.getByRole('cell', { name: '₹12,500.00' }).waitFor();
        await page.getByText('₹1,00,000.00').waitFor();
        await page.getByRole('cell', { name: '2 November 2026' }).waitFor();

        await page.unroute('**/api/me/earnings');
        await json(page, '**/api/me/earnings', 404, {
          statusCode: 404,
          message: 'Cannot GET /api/me/earnings',
        });
        await page.reload();
        await page.getByText('Your earnings will appear here soon.').waitFor();

        await page
          .getByRole('navigation', { name: 'My account' })
          .getByRole('link', { name: 'Profile' })
          .click();
        await expect(page.getByRole('textbox', { name: 'Full Name' }).inputValue()).resolves.toBe(
          registration.userName,
        );
        await page.getByRole('textbox', { name: 'Full Name' }).fill('Ash');
        await page.getByText('Enter at least 4 characters.').waitFor();
        await page.getByRole('textbox', { name: 'Full Name' }).fill('Asha Rao Kulkarni');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Profile saved.').waitFor();
        await page.getByRole('banner').getByText('Asha Rao Kulkarni').waitFor();
        const profile = await market.api.http.inject({
          method: 'GET',
          url: '/api/me/profile',
          headers: session.bearer,
        });
        expect(profile.json().userName).toBe('Asha Rao Kulkarni');
      }),
    BROWSER_TEST_MS,
  );
});

describe('accessibility with content', () => {
  it(
    'finds no serious or critical axe violation on the home page with its content, in Telugu too',
    () =>
      inBrowser('axe-content', async (page) => {
        await json(page, '**/api/home', 200, homeContent());
        await page.goto('/');
        await page.getByRole('heading', { name: 'Seasonal Offers!' }).waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await page.getByLabel('Language').selectOption('te');
        await page.getByRole('heading', { name: 'సీజనల్ ఆఫర్లు!' }).waitFor();
        expect(await seriousViolations(page)).toEqual([]);
      }),
    BROWSER_TEST_MS,
  );
});
