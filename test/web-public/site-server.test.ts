import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { STRICT_TRANSPORT_SECURITY } from '@offers/api/rules';
import type { WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { serveSite, TEST_PUBLIC_URL } from '../support/web-public.js';

/** The site's server under odd addresses, over https and plain http, and its favicon. */
let market: Marketplace;
let site: WebApp;
let plainHttp: WebApp;

beforeAll(async () => {
  market = await startMarketplace('web_public_site_server');
  site = await serveSite(market);
  plainHttp = await serveSite(market, { publicUrl: 'http://localhost:4173' });
}, 120_000);

afterAll(async () => {
  await plainHttp?.close();
  await site?.close();
  await market?.close();
});

const ask = async (base: string, path: string) => {
  const response = await fetch(`${base}${path}`, { redirect: 'manual' });
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
};

describe('addresses with a NUL or bytes that are not UTF-8', () => {
  it.each([
    '/%00',
    '/store/%00',
    '/store/%ED%A0%80',
    '/coupons?q=%00',
    '/coupons?q=%ED%A0%80',
    '/hi/coupons?sort=%00',
    '/api/coupons?q=%00',
    '/api/stores/%ED%A0%80',
  ])('answers %s with 400, never a server error', async (path) => {
    // Twice: the second would meet a page kept from the first, had it been kept.
    for (const _ of [1, 2]) {
      const answer = await ask(site.url, path);
      expect({ path, status: answer.status }).toEqual({ path, status: 400 });
    }
  });
});

describe('HSTS', () => {
  it(`sends ${STRICT_TRANSPORT_SECURITY} on every answer when the site is https`, async () => {
    expect(TEST_PUBLIC_URL).toMatch(/^https:/);
    await ask(site.url, '/coupons');
    for (const path of [
      '/',
      '/coupons',
      '/coupons',
      '/no-such-page',
      '/robots.txt',
      '/favicon.ico',
      '/api/coupons',
      '/%00',
    ]) {
      const answer = await ask(site.url, path);
      expect({ path, hsts: answer.headers.get('strict-transport-security') }).toEqual({
        path,
        hsts: 'max-age=31536000; includeSubDomains',
      });
    }
  });

  it('sends none over plain http', async () => {
    for (const path of ['/', '/coupons', '/coupons', '/robots.txt', '/api/coupons']) {
      const answer = await ask(plainHttp.url, path);
      expect({ path, hsts: answer.headers.get('strict-transport-security') }).toEqual({ path, hsts: null });
    }
  });
});

describe('/favicon.ico', () => {
  it('is a real icon, cached as the other unhashed files', async () => {
    const icon = await ask(site.url, '/favicon.ico');

    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    expect(icon.headers.get('cache-control')).toBe('public, max-age=86400');
    // An ICO header (reserved 0, type 1 = icon, one image) whose image is a 32-pixel PNG.
    expect([...icon.body.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    expect([icon.body[6], icon.body[7]]).toEqual([32, 32]);
    const offset = icon.body.readUInt32LE(18);
    expect(icon.body.readUInt32LE(14)).toBe(icon.body.length - offset);
    expect(icon.body.subarray(offset, offset + 8).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
  });
});
