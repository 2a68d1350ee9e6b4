import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signInAsAdmin } from '../support/backoffice.js';
import { launchBrowser, REPO_ROOT } from '../support/browser.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { serveSite } from '../support/web-public.js';

/**
 * The back-office's production build as the site's server serves it in production, under
 * /back-office/: its index revalidated on every load, its hashed files kept for good, any address
 * below answered with the index, and its API calls reaching the API through the site's /api.
 */

let market: Marketplace;
let site: Awaited<ReturnType<typeof serveSite>>;

beforeAll(async () => {
  market = await startMarketplace('web_public_back_office');
  site = await serveSite(market);
}, 120_000);

afterAll(async () => {
  await site?.close();
  await market?.close();
});

describe('the back-office on the site server', () => {
  it('is built (npm test builds the web apps)', () => {
    expect(existsSync(join(REPO_ROOT, 'web-backoffice', 'dist', 'index.html'))).toBe(true);
  });

  it('serves its index under /back-office/, never kept, with files named for that path', async () => {
    const response = await fetch(`${site.url}/back-office/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).toMatch(/src="\/back-office\/assets\/index-[\w-]+\.js"/);

    const bare = await fetch(`${site.url}/back-office`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/back-office/');
  });

  it('serves its hashed files for good, and a missing one as missing', async () => {
    const html = await (await fetch(`${site.url}/back-office/`)).text();
    const script = /src="(\/back-office\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(`${site.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await asset.text()).length).toBeGreaterThan(1000);

    const icon = await fetch(`${site.url}/back-office/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);

    const gone = await fetch(`${site.url}/back-office/assets/index-0ld.js`);
    expect(gone.status).toBe(404);
  });

  it('answers a deep link below it with its index', async () => {
    const index = await (await fetch(`${site.url}/back-office/`)).text();
    const deep = await fetch(`${site.url}/back-office/coupon-reviews/12/show?tab=history`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('cache-control')).toBe('no-cache');
    expect(await deep.text()).toBe(index);
  });

  it('reaches the API from its origin: an admin signs in and sees the dashboard', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await signInAsAdmin(page, `${site.url}/back-office`);
      expect(new URL(page.url()).pathname).toBe('/back-office/');
      // The dashboard's figures come from the API through the site's /api.
      await page.getByRole('button', { name: 'Download CSV' }).waitFor();
    } finally {
      await browser.close();
    }
  }, 60_000);
});
