import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { period } from '@offers/api/analytics/queries/dashboards';
import { demoAnalyticsSeed } from '@offers/api/demo/analytics';
import { DEMO_MERCHANT_PASSWORD, DEMO_STORES, demoCouponsSeed } from '@offers/api/demo/coupons';
import { DEVELOPMENT_ADMIN_PASSWORD } from '@offers/api/identity/admin-seed';
import type { Browser, Page } from 'playwright-core';
import { CouponListingProjection } from '../../workers/src/consumers/coupon-listing.projection.js';
import { DailyFiguresProjection } from '../../workers/src/consumers/daily-figures.projection.js';
import { expectAccessible } from '../support/accessibility.js';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { signInToBackoffice } from '../support/backoffice.js';
import { inContext, launchBrowser, seriousViolations, serveWebApp, type WebApp } from '../support/browser.js';
import {
  type Marketplace,
  startMarketplace,
  submitCoupon,
  untilEventsProcessed,
} from '../support/marketplace.js';

let market: Marketplace;
let site: WebApp;
let browser: Browser;
let merchantId: number;

const STORE = DEMO_STORES[0]!;

beforeAll(async () => {
  market = await startMarketplace('backoffice_dashboards', {
    consumers: [CouponListingProjection, DailyFiguresProjection],
  });
  await demoCouponsSeed.run(market.api.dataSource, market.test.environment);
  expect(await demoAnalyticsSeed.run(market.api.dataSource, market.test.environment)).toMatch(
    /events of the last/,
  );
  // A second run finds its history and writes nothing.
  expect(await demoAnalyticsSeed.run(market.api.dataSource, market.test.environment)).toBeUndefined();
  await untilEventsProcessed(market, 120_000);
  [{ id: merchantId }] = await market.api.dataSource.query('SELECT id FROM merchants WHERE user_name = $1', [
    STORE.user,
  ]);
  site = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

/** Every console error and warning of the page, and every uncaught exception. */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(message.text().split('\n')[0]!);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

const signIn = (page: Page, tab: 'Merchant' | 'Admin', username: string, password: string) =>
  signInToBackoffice(page, site.url, tab, username, password);

/** Clicks "Download CSV" and reads the file the browser saved, as rows of named cells. */
async function downloadedCsv(page: Page): Promise<Array<Record<string, string>>> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const text = await readFile((await download.path())!, 'utf8');
  const [header, ...lines] = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter(Boolean);
  const columns = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i], cell])));
}

/** A figure's counts per day of the last 30 days, straight from the aggregates. */
async function aggregate(figure: string, where: string, params: unknown[], amount = false) {
  const { from, to } = period(30);
  const rows: Array<{ day: string; value: string }> = await market.api.dataSource.query(
    `SELECT day::text, sum(${amount ? 'amount_paise' : 'count'})::text AS value FROM daily_figures
     WHERE figure = $1 AND day BETWEEN $2 AND $3 AND ${where} GROUP BY day`,
    [figure, from, to, ...params],
  );
  return new Map(rows.map((row) => [row.day, Number(row.value)]));
}

const rupees = (paise: number) => `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;
const sum = (values: Map<string, number>) => [...values.values()].reduce((a, b) => a + b, 0);
const inIndia = (n: number) => new Intl.NumberFormat('en-IN').format(n);

describe('back-office dashboards', () => {
  it("charts a merchant's reveals, click-outs and purchases of the demo history, per coupon too", async () => {
    await inContext(
      await browser.newContext({ acceptDownloads: true }),
      'merchant-dashboard',
      async (page) => {
        const problems = consoleProblems(page);
        await signIn(page, 'Merchant', STORE.user, DEMO_MERCHANT_PASSWORD);
        const chart = page
          .getByRole('figure')
          .filter({ hasText: 'Reveals, click-outs and purchases per day' });
        await chart.locator('svg').first().waitFor();
        await page.waitForLoadState('networkidle');

        const reveals = await aggregate('reveals', 'merchant_id = $4 AND coupon_id = 0', [merchantId]);
        const clickOuts = await aggregate('click-outs', 'merchant_id = $4 AND coupon_id = 0', [merchantId]);
        const purchases = await aggregate('purchases', 'merchant_id = $4 AND coupon_id = 0', [merchantId]);
        expect(sum(reveals)).toBeGreaterThan(30);
        await chart
          .getByText(`${inIndia(sum(reveals))} reveals, ${inIndia(sum(clickOuts))} click-outs`)
          .waitFor();
        // The chart draws one line per figure over 30 days.
        expect(await chart.locator('svg .MuiLineChart-line').count()).toBe(3);

        const rows = await downloadedCsv(page);
        expect(rows).toHaveLength(30);
        for (const row of rows) {
          expect(Number(row.reveals)).toBe(reveals.get(row.day!) ?? 0);
          expect(Number(row.clickOuts)).toBe(clickOuts.get(row.day!) ?? 0);
          expect(Number(row.purchases)).toBe(purchases.get(row.day!) ?? 0);
        }
        expectAccessible(await seriousViolations(page));

        // One coupon: its own figures, and it leads its top list when it has the most reveals.
        const [top] = await market.api.dataSource.query(
          `SELECT c.id, c.title, sum(f.count)::int AS reveals FROM daily_figures f JOIN coupons c ON c.id = f.coupon_id
         WHERE f.figure = 'reveals' AND f.merchant_id = $1 AND f.coupon_id <> 0 AND f.day >= $2
         GROUP BY c.id, c.title ORDER BY 3 DESC, c.id LIMIT 1`,
          [merchantId, period(30).from],
        );
        const topTable = page.getByRole('table', { name: 'Top coupons' });
        await expect(topTable.getByRole('row').nth(1).getByRole('cell').first().textContent()).resolves.toBe(
          top.title,
        );
        await page.getByRole('combobox', { name: 'Coupon', exact: true }).click();
        await page.getByRole('option', { name: top.title }).click();
        await page
          .getByRole('figure')
          .filter({ hasText: `per day: ${top.title}` })
          .locator('svg')
          .first()
          .waitFor();
        const couponRows = await downloadedCsv(page);
        expect(couponRows.reduce((n, row) => n + Number(row.reveals), 0)).toBe(top.reveals);
        expect(problems).toEqual([]);
      },
    );
  }, 120_000);

  it('shows the marketplace to an admin: activity, cashback in rupees and the review queues', async () => {
    await inContext(await browser.newContext({ acceptDownloads: true }), 'admin-dashboard', async (page) => {
      const problems = consoleProblems(page);
      await signIn(page, 'Admin', 'admin', DEVELOPMENT_ADMIN_PASSWORD);
      const activity = page
        .getByRole('figure')
        .filter({ hasText: 'Sign-ups, coupons approved and reveals per day' });
      const cashback = page
        .getByRole('figure')
        .filter({ hasText: 'Cashback confirmed and paid per day (₹)' });
      await activity.locator('svg').first().waitFor();
      await cashback.locator('svg').first().waitFor();
      await page.waitForLoadState('networkidle');

      const signUps = await aggregate('sign-ups', 'coupon_id = 0', []);
      const reveals = await aggregate('reveals', 'coupon_id = 0', []);
      const confirmed = await aggregate('cashback-confirmed', 'coupon_id = 0', [], true);
      const paid = await aggregate('cashback-paid', 'coupon_id = 0', [], true);
      expect(sum(signUps)).toBeGreaterThan(30);
      expect(sum(confirmed)).toBeGreaterThan(0);
      await activity.getByText(`${inIndia(sum(signUps))} sign-ups`).waitFor();
      const money = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
      await cashback
        .getByText(`${money.format(sum(confirmed) / 100)} confirmed, ${money.format(sum(paid) / 100)} paid`)
        .waitFor();
      expect(await cashback.locator('svg .MuiBarChart-element').count()).toBeGreaterThan(0);
      await page.getByText('Oldest coupon waiting for review').waitFor();
      await page.getByText('Oldest product waiting for review').waitFor();

      const rows = await downloadedCsv(page);
      expect(rows).toHaveLength(30);
      for (const row of rows) {
        expect(Number(row.signUps)).toBe(signUps.get(row.day!) ?? 0);
        expect(Number(row.reveals)).toBe(reveals.get(row.day!) ?? 0);
        expect(row.cashbackConfirmed).toBe(rupees(confirmed.get(row.day!) ?? 0));
        expect(row.cashbackPaid).toBe(rupees(paid.get(row.day!) ?? 0));
      }
      expectAccessible(await seriousViolations(page));
      expect(problems).toEqual([]);
    });
  }, 120_000);

  it('labels the charts in Hindi and Telugu, with dates as each language writes them', async () => {
    await inContext(await browser.newContext(), 'dashboard-languages', async (page) => {
      await signIn(page, 'Admin', 'admin', DEVELOPMENT_ADMIN_PASSWORD);
      await page.getByRole('heading', { name: 'The marketplace, day by day' }).waitFor();
      const { from } = period(30);
      for (const [language, before, heading, chart, tag] of [
        ['हिन्दी', 'English', 'मार्केटप्लेस, दिन-ब-दिन', 'प्रतिदिन पंजीकरण, स्वीकृत कूपन और देखे गए कोड', 'hi-IN'],
        ['తెలుగు', 'हिन्दी', 'మార్కెట్‌ప్లేస్, రోజు వారీగా', 'రోజుకు నమోదులు, ఆమోదించిన కూపన్లు, కోడ్ చూపులు', 'te-IN'],
      ] as const) {
        await page.getByRole('button', { name: before, exact: true }).click();
        await page.getByRole('menuitem', { name: language }).click();
        await page.getByRole('heading', { name: heading }).waitFor();
        const figure = page.getByRole('figure').filter({ hasText: chart });
        await figure.locator('svg').first().waitFor();
        // The period's first day, as the language writes it, opens the chart's summary.
        const first = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone: 'UTC' }).format(
          new Date(`${from}T00:00:00Z`),
        );
        await figure.getByText(first, { exact: false }).first().waitFor();
        await page.waitForLoadState('networkidle');
        expectAccessible(await seriousViolations(page));
      }
    });
  }, 120_000);

  it('counts the review queues in each language: one coupon waiting, no payout', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    await submitCoupon(market, session, { title: 'Waiting for review 10% off' });
    await inContext(await browser.newContext(), 'queue-counts', async (page) => {
      await signIn(page, 'Admin', 'admin', DEVELOPMENT_ADMIN_PASSWORD);
      const waiting = (queue: string) =>
        page
          .locator('.MuiCard-root')
          .filter({ has: page.getByRole('heading', { name: queue }) })
          .locator('p')
          .last();
      for (const [language, before, coupons, payouts, oneWaiting, noneWaiting] of [
        [
          'English',
          undefined,
          'Oldest coupon waiting for review',
          'Oldest payout requested',
          '1 waiting',
          '0 waiting',
        ],
        [
          'हिन्दी',
          'English',
          'समीक्षा की प्रतीक्षा में सबसे पुराना कूपन',
          'सबसे पुराना भुगतान अनुरोध',
          '1 प्रतीक्षा में',
          '0 प्रतीक्षा में',
        ],
        ['తెలుగు', 'हिन्दी', 'సమీక్ష కోసం వేచి ఉన్న పాత కూపన్', 'అత్యంత పాత చెల్లింపు అభ్యర్థన', '1 వేచి ఉంది', '0 వేచి ఉన్నాయి'],
      ] as const) {
        if (before) {
          await page.getByRole('button', { name: before, exact: true }).click();
          await page.getByRole('menuitem', { name: language }).click();
        }
        await expect(waiting(coupons).textContent()).resolves.toBe(oneWaiting);
        await expect(waiting(payouts).textContent()).resolves.toBe(noneWaiting);
      }
    });
  }, 120_000);
});
