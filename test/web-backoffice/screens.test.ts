import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEVELOPMENT_ADMIN_PASSWORD } from '@offers/api/demo';
import type { Browser, Page } from 'playwright-core';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { signInToBackoffice } from '../support/backoffice.js';
import { launchBrowser, REPO_ROOT, serveWebApp, step, type WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';
import { createCategory } from '../support/storefront.js';

let market: Marketplace;
let site: WebApp;
let production: WebApp;
let browser: Browser;
let developmentBuild: string;

/**
 * A development build of the back-office: React's and MUI's warnings (a key missing, a Fragment
 * in a menu, a value out of range) are only in it; the production build strips them.
 */
function buildForDevelopment(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'backoffice-development-'));
  execFileSync(
    join(REPO_ROOT, 'node_modules', '.bin', 'vite'),
    [
      'build',
      '--mode',
      'development',
      '--minify',
      'false',
      '--logLevel',
      'warn',
      '--outDir',
      outDir,
      '--emptyOutDir',
    ],
    {
      cwd: join(REPO_ROOT, 'web-backoffice'),
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'development' },
    },
  );
  return outDir;
}

beforeAll(async () => {
  market = await startMarketplace('backoffice_screens');
  developmentBuild = buildForDevelopment();
  site = await serveWebApp('web-backoffice', market.api.baseUrl, developmentBuild);
  production = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await production?.close();
  await market?.close();
  if (developmentBuild) rmSync(developmentBuild, { recursive: true, force: true });
});

/** Every console error and warning of the page, and every uncaught exception, with where it happened. */
function consoleProblems(page: Page): Set<string> {
  const problems = new Set<string>();
  const where = () => new URL(page.url()).hash || '/';
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      // A failed request's message names the request only in its location.
      const { url } = message.location();
      problems.add(`${message.type()} on ${where()}: ${message.text().split('\n')[0]} (${url})`);
    }
  });
  page.on('pageerror', (error) => problems.add(`uncaught on ${where()}: ${error.message}`));
  return problems;
}

const signIn = (page: Page, tab: 'Merchant' | 'Admin', username: string, password: string) =>
  signInToBackoffice(page, site.url, tab, username, password);

/** Opens a screen by its address and waits until its requests are answered. */
async function visit(page: Page, hash: string, shows: string | RegExp) {
  await step(page, `screen-${hash}`, async () => {
    await page.goto(`${site.url}/#${hash}`);
    await page.getByText(shows).first().waitFor();
    await page.waitForLoadState('networkidle');
  });
}

describe('back-office: every screen without a console error or warning', () => {
  it('as an admin: dashboard, reviews, slots, home content, engagement, menus and languages', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    await submitCoupon(market, session, { title: 'Diwali 20% off' });
    const page = await browser.newPage();
    const problems = consoleProblems(page);

    await visit(page, '/login', 'Sign in to the back-office');
    await visit(page, '/register', 'Register your shop');
    await visit(page, '/forgot-password', 'Forgot your password?');
    await signIn(page, 'Admin', 'admin', DEVELOPMENT_ADMIN_PASSWORD);
    await page.waitForLoadState('networkidle');
    await visit(page, '/coupon-reviews', 'Diwali 20% off');
    await step(page, 'approve-dialog', async () => {
      await page.getByRole('button', { name: 'Approve Diwali 20% off' }).click();
      await page.getByRole('dialog').getByLabel('Slot').click();
      await page.getByRole('option').first().click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    });
    await visit(
      page,
      `/coupon-reviews?filter=${encodeURIComponent(JSON.stringify({ status: 'live' }))}`,
      'Coupon reviews',
    );
    await visit(page, '/product-reviews', 'No merchant products waiting for approval.');
    await visit(page, '/slots', 'Slots');
    await visit(page, '/slots/create', 'Capacity');
    await visit(page, '/slots/1', 'Capacity');
    await visit(page, '/feed-sources', 'Feed sources');
    await visit(page, '/feed-sources/create', 'Sub-id parameter');
    await visit(page, '/feed-runs', 'Feed runs');
    await visit(page, '/feed-advertisers', 'Advertisers');
    await visit(page, '/feed-categories', 'Network categories');
    await visit(page, '/cashback-rates', 'Cashback rates');
    await visit(page, `/cashback-rates/${session.id}`, 'Coupons’ own rates');
    await visit(page, '/cashback-proposals', 'Cashback proposals');
    for (const resource of ['heroes', 'banners', 'seasonal-offers', 'flash-texts', 'best-offer-banners']) {
      await visit(page, `/${resource}`, /./);
    }
    await visit(page, '/subscribers', 'Subscribers');
    await visit(page, '/campaigns', 'Campaigns');
    await visit(page, '/campaigns/create', 'Subject');
    await visit(page, '/contact-messages', 'Contact messages');
    await visit(page, '/dev-mailbox', 'Development mailbox');
    await step(page, 'menus', async () => {
      await page.locator('.RaUserMenu-userButton').click();
      await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
      await page.keyboard.press('Escape');
      // The language button is named by the language in use.
      for (const [from, to] of [
        ['English', 'हिन्दी'],
        ['हिन्दी', 'తెలుగు'],
        ['తెలుగు', 'English'],
      ]) {
        await page.getByRole('button', { name: from, exact: true }).click();
        await page.getByRole('menuitem', { name: to }).click();
      }
      await page.getByRole('button', { name: 'English', exact: true }).waitFor();
    });
    expect([...problems]).toEqual([]);
    await page.close();
  }, 180_000);

  it('as a merchant: dashboard, coupons, products, categories, store, profile, referral, security', async () => {
    const { registration, session } = await registerAndSignInMerchant(market.api.baseUrl);
    const couponId = await submitCoupon(market, session, { title: 'Monsoon 10% off' });
    await createCategory(market, session, 'Face care');
    const page = await browser.newPage();
    const problems = consoleProblems(page);

    await signIn(page, 'Merchant', registration.userName, registration.password);
    await page.waitForLoadState('networkidle');
    await visit(page, '/coupons', 'Monsoon 10% off');
    await visit(page, '/coupons/create', 'Coupon name');
    await step(page, 'coupon-slot-choice', async () => {
      await page.getByLabel('Requested slot').click();
      await page.getByRole('option').first().click();
    });
    await visit(page, `/coupons/${couponId}`, 'Withdraw');
    await visit(page, '/products', 'Quick upload (one image)');
    await visit(page, '/products/create', 'Product name');
    await step(page, 'product-category-choice', async () => {
      await page.getByLabel('Category').click();
      await page.getByRole('option', { name: 'Face care' }).click();
    });
    await visit(page, '/simple-products/create', 'Product name');
    await visit(page, '/merchant-categories', 'Face care');
    await visit(page, '/merchant-categories/create', 'Category name');
    await visit(page, '/store', 'Store name');
    await visit(page, '/profile', 'My profile');
    await visit(page, '/referral', 'Your referral code');
    await visit(page, '/security', 'Where you are signed in');
    await step(page, 'user-menu', async () => {
      await page.locator('.RaUserMenu-userButton').click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
    });
    expect([...problems]).toEqual([]);
    await page.close();
  }, 180_000);
});

describe('back-office: its icon', () => {
  it("links a favicon and an apple-touch icon, served as images: the public site's logo", async () => {
    const page = await browser.newPage();
    await page.goto(`${production.url}/#/login`);
    const icons = (await page.evaluate(
      `[...document.querySelectorAll('link[rel=icon], link[rel=apple-touch-icon]')]
         .map((link) => ({ rel: link.rel, href: link.href }))`,
    )) as Array<{ rel: string; href: string }>;
    expect(icons.map((icon) => icon.rel).sort()).toEqual(['apple-touch-icon', 'icon', 'icon']);
    for (const icon of icons) {
      const answer = await fetch(icon.href);
      expect([icon.href, answer.status, answer.headers.get('content-type')]).toEqual([
        icon.href,
        200,
        expect.stringMatching(/^image\/(svg\+xml|png)$/),
      ]);
    }
    const svg = icons.find((icon) => icon.href.endsWith('.svg'));
    expect(await (await fetch(svg?.href ?? '')).text()).toBe(
      readFileSync(join(REPO_ROOT, 'web-public', 'public', 'favicon.svg'), 'utf8'),
    );
    await page.close();
  });
});
