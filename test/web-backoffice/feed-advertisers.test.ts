import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { advertiserStore, categoryIdsFor, noteUnmappedAdvertiser } from '@offers/api/read-models';
import sharp from 'sharp';
import { expectAccessible } from '../support/accessibility.js';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { type BackofficeSite, signInAsAdmin, startBackofficeSite } from '../support/backoffice.js';
import { seriousViolations, step } from '../support/browser.js';
import { type Marketplace, untilEventsProcessed } from '../support/marketplace.js';

let backoffice: BackofficeSite;
let market: Marketplace;
let sourceId: number;

beforeAll(async () => {
  backoffice = await startBackofficeSite('backoffice_feed_advertisers');
  market = backoffice.market;
  const created = await market.api.http.inject({
    method: 'POST',
    url: '/api/admin/feed-sources',
    headers: market.admin,
    payload: { name: 'Admitad India', format: 'admitad-json' },
  });
  sourceId = created.json().id;
  const manager = market.api.dataSource.manager;
  await noteUnmappedAdvertiser(
    manager,
    sourceId,
    { id: '2041', name: 'Nykaa Fashion', siteUrl: 'https://www.nykaafashion.com' },
    12,
  );
  await noteUnmappedAdvertiser(manager, sourceId, { id: '3300', name: 'Glow Store', siteUrl: null }, 4);
  await categoryIdsFor(manager, sourceId, ['Mobiles & Tablets']);
}, 120_000);

afterAll(() => backoffice?.close());

describe('back-office: advertisers and network categories', () => {
  it('an admin creates the store of a waiting advertiser, maps another to it, gives it to its merchant and maps a category', async () => {
    const page = await backoffice.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await signInAsAdmin(page, backoffice.site.url);

    await step(page, 'feed-advertisers-queue', async () => {
      await page.getByRole('menuitem', { name: 'Advertisers' }).click();
      await page.getByRole('cell', { name: 'Nykaa Fashion' }).waitFor();
      await page.getByRole('cell', { name: 'Glow Store' }).waitFor();
      expectAccessible(await seriousViolations(page));
    });

    await step(page, 'feed-advertiser-create-store', async () => {
      await page.getByRole('cell', { name: 'Nykaa Fashion' }).click();
      await page.getByRole('heading', { name: 'Or create its store' }).waitFor();
      await expect(page.getByLabel('Store name *').inputValue()).resolves.toBe('Nykaa Fashion');
      await expect(page.getByLabel('Site *').inputValue()).resolves.toBe('https://www.nykaafashion.com');
      await page.locator('input[type=file]').setInputFiles({
        name: 'logo.png',
        mimeType: 'image/png',
        buffer: await sharp({ create: { width: 256, height: 256, channels: 3, background: '#e4007c' } })
          .png()
          .toBuffer(),
      });
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Create the store and map it' }).click();
      await page.getByText('The store is created and public').waitFor();
    });
    const nykaa = await advertiserStore(market.api.dataSource, sourceId, '2041');
    expect(nykaa).not.toBeNull();
    const [store] = await market.api.dataSource.query(
      'SELECT m.user_name, m.slug, s.store_name, s.merchant_logo_id FROM merchants m JOIN merchant_stores s ON s.merchant_id = m.id WHERE m.id = $1',
      [nykaa],
    );
    expect(store).toMatchObject({ user_name: null, slug: 'nykaa-fashion', store_name: 'Nykaa Fashion' });
    expect(store.merchant_logo_id).not.toBeNull();
    await untilEventsProcessed(market);
    expect(
      (await market.api.http.inject({ method: 'GET', url: '/api/stores/nykaa-fashion' })).statusCode,
    ).toBe(200);

    await step(page, 'feed-advertiser-map-existing', async () => {
      await page.getByRole('menuitem', { name: 'Advertisers' }).click();
      await page.getByRole('cell', { name: 'Glow Store' }).click();
      await page.getByLabel('Store *').fill('Nykaa');
      await page.getByRole('option', { name: 'Nykaa Fashion' }).click();
      await page.getByRole('button', { name: 'Map to this store' }).click();
      await page.getByText('The advertiser is mapped').waitFor();
    });
    expect(await advertiserStore(market.api.dataSource, sourceId, '3300')).toBe(nykaa);

    const claimant = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Nykaa Official' });
    await step(page, 'feed-advertiser-claim', async () => {
      // The advertiser's store has no account: a registered merchant may take it over.
      await page.reload();
      await page.getByRole('heading', { name: 'Give this store to its merchant' }).waitFor();
      await page.getByLabel('Registered merchant *').fill('Nykaa Off');
      await page.getByRole('option', { name: 'Nykaa Official' }).click();
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Give the store to this merchant' }).click();
      await page.getByText('The merchant signs in to this store from now on.').waitFor();
      await page
        .getByRole('heading', { name: 'Give this store to its merchant' })
        .waitFor({ state: 'detached' });
    });
    const [owner] = await market.api.dataSource.query(
      'SELECT id FROM merchants WHERE lower(user_name) = lower($1)',
      [claimant.registration.userName],
    );
    expect(owner.id).toBe(nykaa);

    await step(page, 'feed-category-map', async () => {
      await page.getByRole('menuitem', { name: 'Network categories' }).click();
      await page.getByRole('cell', { name: 'Mobiles & Tablets' }).click();
      await page.getByRole('combobox', { name: 'Our category' }).click();
      const [category] = await market.api.dataSource.query('SELECT name FROM categories ORDER BY id LIMIT 1');
      await page.getByRole('option', { name: category.name }).click();
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('The category is mapped.').waitFor();
    });
    const [first] = await market.api.dataSource.query('SELECT id FROM categories ORDER BY id LIMIT 1');
    expect(await categoryIdsFor(market.api.dataSource, sourceId, ['mobiles & tablets'])).toEqual([first.id]);
    await page.close();
  }, 180_000);
});
