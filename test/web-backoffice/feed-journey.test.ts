import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FEED_REJECTIONS } from '@offers/api/rules';
import { FeedRunJobs } from '@offers/workers/feeds';
import type { Page } from 'playwright-core';
import { expectAccessible } from '../support/accessibility.js';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { type BackofficeSite, signInAsAdmin, startBackofficeSite } from '../support/backoffice.js';
import { seriousViolations, step } from '../support/browser.js';
import { fillMappedCsvSource, mapAdvertiser } from '../support/feeds.js';

/**
 * The back-office's feed journey as an admin walks it, with the workers importing for real: add a
 * source, upload its file, read the run's report, map the advertiser its rows wait for, upload
 * again and see those rows added, and download the rejected rows.
 */
let backoffice: BackofficeSite;

beforeAll(async () => {
  backoffice = await startBackofficeSite('backoffice_feed_journey', {
    consumers: [FeedRunJobs],
    roles: ['relay', 'events', 'feeds'],
  });
}, 120_000);

afterAll(() => backoffice?.close());

/** A partner's file: a row of a mapped advertiser, one of an advertiser not mapped yet, a row without a title. */
const feedOf = (mapped: string, waiting: string) =>
  [
    'id,store_id,store_name,title,code,end_date',
    `1,${mapped},Glow Store,Flat ₹200 off on ₹999,SAVE200,2031-12-31`,
    `2,${waiting},Nykaa Fashion,10% off sitewide,NYKAA10,2031-12-31`,
    `3,${waiting},Nykaa Fashion,,BROKEN,2031-12-31`,
  ].join('\r\n');

/** A menu entry: the side bar's on a desktop, the menu behind its button on a phone. */
async function openMenu(page: Page, name: string) {
  const entry = page.getByRole('menuitem', { name });
  if (!(await entry.isVisible())) await page.getByRole('button', { name: 'Open menu' }).click();
  await entry.click();
}

/** The page fits the screen's width: a wide table scrolls in its card, not the page under the app bar. */
async function expectWithinScreen(page: Page, width: number) {
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
}

/** What a run's report shows for a count (under its label: `Added`, `Waiting for a store`, ...). */
const shownCount = (page: Page, source: string) =>
  page.locator(`.ra-field-${source} > :last-child`).textContent();

/**
 * Uploads the feed on its source's page, waits there for the run it queues to finish (the page
 * reads the runs again meanwhile), and opens the run.
 */
async function uploadAndOpenRun(page: Page, feed: string, run: number) {
  await page.getByTestId('feed-file').setInputFiles({
    name: 'partner.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(feed),
  });
  // The runs' list, not the postback fields' table beside it.
  const newest = page.locator('tbody tr.RaDatagrid-row').first();
  // A string, because the test code is type-checked without the DOM's types.
  await page.waitForFunction(`document.querySelectorAll('tbody tr.RaDatagrid-row').length === ${run}`);
  await newest.getByText('Succeeded').waitFor({ timeout: 30_000 });
  // On a phone the upload's notice lies over the list's first row: the admin closes it. The
  // pointer leaves it first (a notice under the pointer never hides), and Escape is pressed again
  // while the notice stays: a press that lands before the notice listens closes nothing.
  await page.mouse.move(0, 0);
  const notice = page.locator('.MuiSnackbar-root');
  for (let tries = 0; (await notice.count()) > 0; tries++) {
    if (tries === 10) throw new Error('the upload notice did not close');
    await page.keyboard.press('Escape');
    await notice.waitFor({ state: 'detached', timeout: 1_500 }).catch(() => undefined);
  }
  await newest.click();
  // The run's page may first show the run as the list first read it (queued), then as it is.
  await page.locator('.ra-field-status').getByText('Succeeded').waitFor();
}

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1366, height: 900 },
];

describe('back-office: the feed journey', () => {
  it.each(VIEWPORTS)(
    'on a $name an admin adds a source, uploads its file, maps the waiting advertiser and sees its rows added on the next run',
    async ({ name: size, width, height }) => {
      const { market, site, browser } = backoffice;
      const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const sourceName = `Partner coupons (${size})`;
      const [mappedId, waitingId] = [`GLOW-${size}`, `NYKAA-${size}`];
      const glow = await registerAndSignInMerchant(market.api.baseUrl, { brandName: `Glow ${size}` });
      const nykaa = await registerAndSignInMerchant(market.api.baseUrl, {
        brandName: `Nykaa Fashion ${size}`,
      });
      const feed = feedOf(mappedId, waitingId);
      await signInAsAdmin(page, site.url);

      await step(page, `feed-journey-${size}-add-source`, async () => {
        await openMenu(page, 'Feed sources');
        await page.getByRole('link', { name: 'Create', exact: true }).click();
        await fillMappedCsvSource(page, sourceName, {
          'Row id column': 'id',
          'Advertiser id column': 'store_id',
          'Advertiser name column': 'store_name',
          'Title column *': 'title',
          'Code column': 'code',
          'End date column': 'end_date',
        });
        expectAccessible(await seriousViolations(page));
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Not run yet').waitFor();
      });
      const [source] = await market.api.dataSource.query('SELECT id FROM feed_sources WHERE name = $1', [
        sourceName,
      ]);
      // An advertiser an admin mapped before: its rows go in on the first run.
      await mapAdvertiser(market.api.dataSource, source.id, mappedId, glow.session.id);

      await step(page, `feed-journey-${size}-first-run`, async () => {
        await uploadAndOpenRun(page, feed, 1);
        await expect(shownCount(page, 'rowsRead')).resolves.toBe('3');
        await expect(shownCount(page, 'added')).resolves.toBe('1');
        await expect(shownCount(page, 'rejected')).resolves.toBe('1');
        await expect(shownCount(page, 'waiting')).resolves.toBe('1');
        await page.getByRole('cell', { name: FEED_REJECTIONS['missing-title'] }).waitFor();
        await expectWithinScreen(page, width);
        expectAccessible(await seriousViolations(page));
      });

      const rejections = await step(page, `feed-journey-${size}-rejections-csv`, async () => {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('link', { name: 'Download rejected rows (CSV)' }).click(),
        ]);
        return readFile(await download.path());
      });
      expect(rejections.toString('utf8')).toBe(
        `\ufeffline,rowId,reason,message\r\n4,3,missing-title,${FEED_REJECTIONS['missing-title']}\r\n`,
      );

      await step(page, `feed-journey-${size}-waiting-advertisers`, async () => {
        await page.getByRole('link', { name: 'Map the advertisers these rows wait for' }).click();
        // The queue shows this source's waiting advertisers only.
        await page.getByRole('cell', { name: waitingId }).waitFor();
        await expect(page.getByRole('cell', { name: mappedId }).count()).resolves.toBe(0);
        await expect(page.getByLabel('Source').textContent()).resolves.toContain(sourceName);
        await expectWithinScreen(page, width);
        expectAccessible(await seriousViolations(page));
      });

      await step(page, `feed-journey-${size}-map-advertiser`, async () => {
        await page.getByRole('cell', { name: waitingId }).click();
        await page.getByLabel('Store *').fill(`Nykaa Fashion ${size}`);
        await page.getByRole('option', { name: `Nykaa Fashion ${size}` }).click();
        expectAccessible(await seriousViolations(page));
        await page.getByRole('button', { name: 'Map to this store' }).click();
        await page.getByText('The advertiser is mapped').waitFor();
      });

      await step(page, `feed-journey-${size}-second-run`, async () => {
        await openMenu(page, 'Feed sources');
        await page.getByRole('cell', { name: sourceName }).click();
        await uploadAndOpenRun(page, feed, 2);
        await expect(shownCount(page, 'rowsRead')).resolves.toBe('3');
        await expect(shownCount(page, 'added')).resolves.toBe('1');
        await expect(shownCount(page, 'unchanged')).resolves.toBe('1');
        await expect(shownCount(page, 'rejected')).resolves.toBe('1');
        await expect(shownCount(page, 'waiting')).resolves.toBe('0');
        await expect(
          page.getByRole('link', { name: 'Map the advertisers these rows wait for' }).count(),
        ).resolves.toBe(0);
        expectAccessible(await seriousViolations(page));
      });

      await step(page, `feed-journey-${size}-runs`, async () => {
        // The source's runs and the list of every run say how many rows waited, run by run.
        await page.getByRole('link', { name: sourceName }).click();
        await page.getByRole('columnheader', { name: 'Waiting for a store' }).waitFor();
        await expect(
          page.locator('tbody tr.RaDatagrid-row td:last-child').allTextContents(),
        ).resolves.toEqual(['0', '1']);
        await expectWithinScreen(page, width);
        expectAccessible(await seriousViolations(page));
        await openMenu(page, 'Feed runs');
        const row = page.getByRole('row').filter({ hasText: sourceName });
        await row.first().waitFor();
        await expect(row.locator('td:last-child').allTextContents()).resolves.toEqual(['0', '1']);
        await expectWithinScreen(page, width);
        expectAccessible(await seriousViolations(page));
      });

      const coupons = await market.api.dataSource.query(
        `SELECT c.merchant_id AS "merchantId", c.title FROM feed_coupons f JOIN coupons c ON c.id = f.coupon_id
         WHERE f.source_id = $1 ORDER BY f.row_id`,
        [source.id],
      );
      expect(coupons).toEqual([
        { merchantId: glow.session.id, title: 'Flat ₹200 off on ₹999' },
        { merchantId: nykaa.session.id, title: '10% off sitewide' },
      ]);
      await context.close();
    },
    240_000,
  );
});
