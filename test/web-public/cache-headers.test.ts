import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { registerAndSignInUser, type Session } from '../support/accounts.js';
import { launchBrowser, type WebApp } from '../support/browser.js';
import { approve, type Marketplace, merchantWithCoupon, startMarketplace } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';
import { serveSite, untilAllListed, visit } from '../support/web-public.js';

/**
 * What a CDN in front of the site may keep: the public pages and reads (the same for everyone,
 * revalidated with their ETags), never an answer of one visitor's. The settings are the defaults.
 */

const PUBLIC = 'public, max-age=0, s-maxage=60, stale-while-revalidate=30';
const PRIVATE = 'private, no-store';

let market: Marketplace;
let site: WebApp;
let shopper: Session;
let slug: string;
let couponId: number;

beforeAll(async () => {
  market = await startMarketplace('web_public_cache_headers');
  const made = await merchantWithCoupon(market, { title: 'Rose water toner 15% off' });
  couponId = made.couponId;
  const approved = await approve(market, couponId);
  if (approved.statusCode !== 200) throw new Error(approved.body);
  await untilAllListed(market, 1);
  [{ slug }] = await market.api.dataSource.query('SELECT slug FROM merchants WHERE id = $1', [
    made.merchant.id,
  ]);
  ({ session: shopper } = await registerAndSignInUser(market.api.baseUrl, { userName: 'Meera Iyer' }));
  site = await serveSite(market);
}, 120_000);

afterAll(async () => {
  await site?.close();
  await market?.close();
});

async function ask(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(`${site.url}${path}`, { method, headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** A page's answer and the 304 to its ETag (asked again if a change came in between). */
async function revalidated(path: string, headers: Record<string, string> = {}) {
  return eventually(async () => {
    const first = await ask(path, headers);
    const etag = first.headers.get('etag');
    if (!etag) return false;
    const again = await ask(path, { ...headers, 'if-none-match': etag });
    return again.status === 304 && { first, again };
  }, `a 304 for ${path}`);
}

describe('pages a CDN may keep', () => {
  it('says public with the settings, an ETag and a 304 for every anonymous page, in every language', async () => {
    const pages = [
      '/',
      '/hi/',
      '/te/',
      `/store/${slug}`,
      `/hi/store/${slug}`,
      `/te/store/${slug}`,
      '/coupons',
      '/coupons?sort=az',
      '/hi/coupons/skin-care',
      '/top-offers',
      '/stores',
      '/faq',
      '/te/privacy',
      '/contact',
    ];
    for (const path of pages) {
      const { first, again } = await revalidated(path);
      expect({ path, status: first.status, cacheControl: first.headers.get('cache-control') }).toEqual({
        path,
        status: 200,
        cacheControl: PUBLIC,
      });
      expect({ path, vary: first.headers.get('vary') }).toEqual({ path, vary: 'Accept-Encoding' });
      expect(first.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
      expect(again.headers.get('cache-control')).toBe(PUBLIC);
      expect(again.body).toBe('');
    }
  });

  it('keeps a page not found public too, and robots.txt and the sitemap', async () => {
    const missing = await ask('/store/no-such-store');
    const robots = await ask('/robots.txt');
    const sitemap = await ask('/sitemap.xml');

    expect([missing.status, missing.headers.get('cache-control')]).toEqual([404, PUBLIC]);
    expect(missing.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
    expect([robots.status, robots.headers.get('cache-control')]).toEqual([200, PUBLIC]);
    expect([sitemap.status, sitemap.headers.get('cache-control')]).toEqual([200, PUBLIC]);
    for (const path of ['/robots.txt', '/sitemap.xml']) {
      const { first, again } = await revalidated(path);
      expect({ path, status: first.status, cacheControl: again.headers.get('cache-control') }).toEqual({
        path,
        status: 200,
        cacheControl: PUBLIC,
      });
    }
  });

  it('sends a signed-in shopper the very page everyone gets, so the CDN may hand it to anyone', async () => {
    for (const path of ['/', `/store/${slug}`, '/coupons']) {
      const { anonymous, signedIn } = await eventually(async () => {
        const anonymous = await ask(path);
        const signedIn = await ask(path, { cookie: shopper.cookie });
        return anonymous.headers.get('etag') === signedIn.headers.get('etag') && { anonymous, signedIn };
      }, `${path} the same signed in and not`);
      expect(signedIn.body).toBe(anonymous.body);
      expect(signedIn.body).not.toContain('Meera Iyer');
      expect(signedIn.headers.get('cache-control')).toBe(PUBLIC);
    }
  });

  it('never varies `/` by the language cookie: the page itself sends a returning visitor on', async () => {
    const chosen = await ask('/', { cookie: 'language=hi' });
    const home = await ask('/');
    const script = /<script>(\(function\(\)\{[^<]*language=\(hi\|te\)[^<]*)<\/script>/.exec(home.body)?.[1];
    const hash = (await import('node:crypto'))
      .createHash('sha256')
      .update(script ?? '')
      .digest('base64');

    expect([chosen.status, chosen.headers.get('location')]).toEqual([302, '/hi/']);
    expect(chosen.headers.get('cache-control')).toBe(PRIVATE);
    expect(home.headers.get('cache-control')).toBe(PUBLIC);
    expect(home.headers.get('vary')).toBe('Accept-Encoding');
    expect(script).toBeDefined();
    // The policy allows the step by its hash, and nothing inline else that is run.
    expect(home.headers.get('content-security-policy')).toContain(`'sha256-${hash}'`);
    // The other languages' homes are not sent anywhere.
    expect((await ask('/hi/', { cookie: 'language=te' })).status).toBe(200);
    expect((await ask('/hi/')).body).not.toContain('location.replace');
  });

  it("sends a returning visitor on from the CDN's copy of `/` in a browser, and nobody else", async () => {
    const browser = await launchBrowser();
    try {
      for (const language of ['te', undefined]) {
        const context = await browser.newContext({ baseURL: site.url });
        if (language) await context.addCookies([{ name: 'language', value: language, url: site.url }]);
        const page = await context.newPage();
        // As a CDN answers: its one copy of `/`, whoever asks.
        await page.route(`${site.url}/`, async (route) => {
          const copy = await fetch(`${site.url}/`);
          const headers = Object.fromEntries(
            [...copy.headers].filter(([name]) => !['content-encoding', 'content-length'].includes(name)),
          );
          await route.fulfill({ status: copy.status, headers, body: await copy.text() });
        });
        await visit(page, '/');
        expect(new URL(page.url()).pathname).toBe(language ? `/${language}/` : '/');
        expect(await page.getAttribute('html', 'lang')).toBe(language ?? 'en');
        await context.close();
      }
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('what no cache may keep', () => {
  it('says private, no-store for the account pages and forms, signed in or not', async () => {
    for (const path of [
      '/account',
      '/account/profile',
      '/hi/account',
      '/sign-in',
      '/register',
      '/forgot-password',
    ]) {
      for (const headers of [{}, { cookie: shopper.cookie }] as Array<Record<string, string>>) {
        const answer = await ask(path, headers);
        expect({ path, status: answer.status, cacheControl: answer.headers.get('cache-control') }).toEqual({
          path,
          status: 200,
          cacheControl: PRIVATE,
        });
      }
    }
    const reset = await ask('/reset-password?token=secret-token-of-one-shopper');
    expect(reset.headers.get('cache-control')).toBe(PRIVATE);
  });
});

describe('the API through the site', () => {
  it('says public with an ETag and a 304 for the public reads', async () => {
    for (const path of [
      '/api/coupons',
      '/api/coupons?sort=newest&perPage=5',
      '/api/categories',
      '/api/home',
      '/api/stores',
      `/api/stores/${slug}`,
      '/api/search/suggest?q=rose',
    ]) {
      const { first, again } = await revalidated(path);
      expect({ path, status: first.status, cacheControl: first.headers.get('cache-control') }).toEqual({
        path,
        status: 200,
        cacheControl: PUBLIC,
      });
      expect(first.headers.get('vary') ?? '').not.toMatch(/cookie/i);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    }
    // The same read, asked with a session, is the same answer.
    const signedIn = await ask('/api/coupons', { cookie: shopper.cookie });
    const anonymous = await ask('/api/coupons');
    expect(signedIn.body).toBe(anonymous.body);
    expect(signedIn.headers.get('etag')).toBe(anonymous.headers.get('etag'));
  });

  it('says private, no-store for signed-in reads, admin reads, commands and errors', async () => {
    const me = await ask('/api/auth/me', { cookie: shopper.cookie });
    const profile = await ask('/api/me/profile', { cookie: shopper.cookie });
    const notSignedIn = await ask('/api/me/profile');
    const admin = await market.api.http.inject({
      method: 'GET',
      url: '/api/admin/coupons',
      headers: market.admin,
    });
    const reveal = await market.api.http.inject({ method: 'POST', url: `/api/coupons/${couponId}/reveal` });
    const refused = await ask('/api/coupons?sort=nonsense');
    const missingStore = await ask('/api/stores/no-such-store');

    expect([me.status, me.headers.get('cache-control')]).toEqual([200, PRIVATE]);
    expect(me.body).toContain('Meera Iyer');
    expect([profile.status, profile.headers.get('cache-control')]).toEqual([200, PRIVATE]);
    expect([notSignedIn.status, notSignedIn.headers.get('cache-control')]).toEqual([401, PRIVATE]);
    expect([admin.statusCode, admin.headers['cache-control']]).toEqual([200, PRIVATE]);
    expect([reveal.statusCode, reveal.headers['cache-control']]).toEqual([200, PRIVATE]);
    expect([refused.status, refused.headers.get('cache-control')]).toEqual([400, PRIVATE]);
    expect([missingStore.status, missingStore.headers.get('cache-control')]).toEqual([404, PRIVATE]);
    for (const answer of [me, profile]) expect(answer.headers.get('etag')).toBeNull();
  });
});
