import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LISTINGS_CHANNEL } from '@offers/api/events';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { launchBrowser, type WebApp } from '../support/browser.js';
import { approve, type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';
import {
  approveProduct,
  createCategory,
  png,
  pngOf,
  saveStore,
  sendForm,
  submitProduct,
  untilOnPage,
} from '../support/storefront.js';
import { eventually } from '../support/test-environment.js';
import { serveSite, TEST_PUBLIC_URL, untilAllListed, visit } from '../support/web-public.js';

/**
 * The public site as a search engine's crawler meets it: plain HTTP, no JavaScript. Every page
 * arrives complete, in its language, with its own head tags and structured data; robots.txt, the
 * sitemap and the status codes mean what they say. Then the same pages in Chromium hydrate
 * without a console error.
 */

const SKIN_CARE = 1;
const HAIR_CARE = 3;

let market: Marketplace;
let site: WebApp;
let smallSitemaps: WebApp;
let merchantId: number;
let slug: string;
const coupons: Record<string, number> = {};

beforeAll(async () => {
  market = await startMarketplace('web_public_crawler');
  const { session } = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Kesari Naturals' });
  merchantId = session.id;
  for (const [title, categoryIds] of [
    ['Saffron face serum 30% off', [SKIN_CARE]],
    ['Amla hair oil 20% off', [HAIR_CARE]],
  ] as const) {
    const id = await submitCoupon(market, session, { title, categoryIds: [...categoryIds] });
    const approved = await approve(market, id);
    if (approved.statusCode !== 200) throw new Error(approved.body);
    coupons[title] = id;
  }
  await saveStore(market, session, {
    storeName: 'Kesari Naturals',
    storeAddress: 'Banjara Hills, Hyderabad',
    tagline: 'Ayurvedic skin and hair care',
    aboutDescription: 'Small batches from Telangana.',
  });
  const oils = await createCategory(market, session, 'Oils');
  const product = await submitProduct(market, session, oils, {
    productName: 'Kumkumadi oil',
    price: '1499.00',
  });
  await approveProduct(market, product);
  await untilOnPage(market, merchantId, product, true, 30_000);
  await untilAllListed(market, 2);
  [{ slug }] = await market.api.dataSource.query('SELECT slug FROM merchants WHERE id = $1', [merchantId]);
  site = await serveSite(market);
  smallSitemaps = await serveSite(market, { sitemapLimit: 10 });
}, 180_000);

afterAll(async () => {
  await smallSitemaps?.close();
  await site?.close();
  await market?.close();
});

/** As a crawler asks: no cookies, no scripts run, redirects not followed. */
async function crawl(path: string, headers: Record<string, string> = {}, base = site.url) {
  const response = await fetch(`${base}${path}`, { headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

function headOf(html: string) {
  const all = (pattern: RegExp) => [...html.matchAll(pattern)].map((match) => match[1]!);
  const meta = (key: string) =>
    new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)">`).exec(html)?.[1]?.replace(/&#39;/g, "'");
  return {
    lang: /<html lang="([^"]+)">/.exec(html)?.[1],
    title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
    description: meta('description'),
    robots: meta('robots'),
    canonical: /<link rel="canonical" href="([^"]+)">/.exec(html)?.[1],
    alternates: Object.fromEntries(
      [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map((m) => [
        m[1],
        m[2],
      ]),
    ),
    og: {
      title: meta('og:title'),
      description: meta('og:description'),
      url: meta('og:url'),
      image: meta('og:image'),
    },
    twitter: { card: meta('twitter:card'), title: meta('twitter:title'), image: meta('twitter:image') },
    jsonLd: all(/<script type="application\/ld\+json">(.*?)<\/script>/gs).map((text) => JSON.parse(text)),
    h1: /<h1[^>]*>(.*?)<\/h1>/s.exec(html)?.[1]?.replace(/<[^>]+>/g, ''),
  };
}

const typed = (items: Array<Record<string, unknown>>, type: string) =>
  items.filter((item) => item['@type'] === type);

describe('pages as crawlers see them', () => {
  it.each([
    ['/', 'en', 'Coupon codes, cashback and offers in India · Offers Marketplace'],
    ['/hi/', 'hi', 'भारत में कूपन कोड, कैशबैक और ऑफ़र · ऑफ़र्स मार्केटप्लेस'],
    ['/te/', 'te', 'భారతదేశంలో కూపన్ కోడ్‌లు, క్యాష్‌బ్యాక్ మరియు ఆఫర్‌లు · ఆఫర్స్ మార్కెట్‌ప్లేస్'],
  ])(
    'renders the home page %s whole, in its language, with head tags and WebSite and Organization data',
    async (path, lang, title) => {
      const page = await crawl(path);
      const head = headOf(page.body);

      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(head).toMatchObject({ lang, title, canonical: `${TEST_PUBLIC_URL}${path}` });
      expect(head.description?.length).toBeGreaterThan(50);
      expect(head.alternates).toEqual({
        en: `${TEST_PUBLIC_URL}/`,
        hi: `${TEST_PUBLIC_URL}/hi/`,
        te: `${TEST_PUBLIC_URL}/te/`,
        'x-default': `${TEST_PUBLIC_URL}/`,
      });
      expect(head.og).toEqual({
        title,
        description: head.description,
        url: `${TEST_PUBLIC_URL}${path}`,
        image: expect.stringMatching(/^https:\/\/offers\.example\.in\//),
      });
      expect(head.twitter).toEqual({ card: 'summary_large_image', title, image: head.og.image });
      expect(head.robots).toBeUndefined();
      const [website] = typed(head.jsonLd, 'WebSite');
      expect(website).toMatchObject({
        '@context': 'https://schema.org',
        url: `${TEST_PUBLIC_URL}${path}`,
        potentialAction: {
          '@type': 'SearchAction',
          target: {
            urlTemplate: `${TEST_PUBLIC_URL}${path === '/' ? '' : path.slice(0, -1)}/coupons?q={search_term_string}`,
          },
          'query-input': 'required name=search_term_string',
        },
      });
      expect(typed(head.jsonLd, 'Organization')).toHaveLength(1);
      // The coupons are in the page itself, not fetched by a script.
      expect(page.body).toContain('Saffron face serum 30% off');
      expect(page.body).toContain('Amla hair oil 20% off');
    },
  );

  it('renders the coupon lists and each category at its own address, in each language', async () => {
    const all = await crawl('/coupons');
    const skin = await crawl('/coupons/skin-care');
    const hindiHair = await crawl('/hi/coupons/hair-care');
    const unknown = await crawl('/coupons/garden-tools');

    expect(all.status).toBe(200);
    expect(all.body).toContain('Saffron face serum 30% off');
    expect(all.body).toContain('Amla hair oil 20% off');
    expect(skin.status).toBe(200);
    expect(skin.body).toContain('Saffron face serum 30% off');
    expect(skin.body).not.toContain('Amla hair oil 20% off');
    const skinHead = headOf(skin.body);
    expect(skinHead).toMatchObject({
      title: 'Skin Care coupons and offers · Offers Marketplace',
      canonical: `${TEST_PUBLIC_URL}/coupons/skin-care`,
      h1: 'Skin Care coupons and offers',
    });
    expect(skinHead.description).toContain('Saffron face serum 30% off');
    expect(typed(skinHead.jsonLd, 'BreadcrumbList')[0]).toMatchObject({
      itemListElement: [
        { position: 1, item: `${TEST_PUBLIC_URL}/` },
        { position: 2, item: `${TEST_PUBLIC_URL}/coupons` },
        { position: 3, name: 'Skin Care', item: `${TEST_PUBLIC_URL}/coupons/skin-care` },
      ],
    });
    expect(hindiHair.status).toBe(200);
    expect(headOf(hindiHair.body)).toMatchObject({
      lang: 'hi',
      canonical: `${TEST_PUBLIC_URL}/hi/coupons/hair-care`,
    });
    expect(hindiHair.body).toContain('Amla hair oil 20% off');
    expect(hindiHair.body).toContain('बालों की देखभाल');
    expect(unknown.status).toBe(404);
  });

  it('renders a store page at its slug with its coupons as Offers and its products as Products; its id moves there', async () => {
    const page = await crawl(`/store/${slug}`);
    const byId = await crawl(`/store/${merchantId}`);
    const hindiById = await crawl(`/hi/store/${merchantId}`);
    const head = headOf(page.body);

    expect(slug).toBe('kesari-naturals');
    expect(page.status).toBe(200);
    expect(head).toMatchObject({
      title: 'Kesari Naturals coupons, offers and products · Offers Marketplace',
      canonical: `${TEST_PUBLIC_URL}/store/kesari-naturals`,
      h1: 'Kesari Naturals',
    });
    expect(head.description).toContain('Ayurvedic skin and hair care');
    expect(page.body).toContain('Saffron face serum 30% off');
    expect(page.body).toContain('Kumkumadi oil');
    expect(typed(head.jsonLd, 'BreadcrumbList')[0]).toMatchObject({
      itemListElement: [
        { position: 1, item: `${TEST_PUBLIC_URL}/` },
        { position: 2, item: `${TEST_PUBLIC_URL}/stores` },
        { position: 3, name: 'Kesari Naturals', item: `${TEST_PUBLIC_URL}/store/kesari-naturals` },
      ],
    });
    const [store] = typed(head.jsonLd, 'Store');
    expect(store).toMatchObject({ name: 'Kesari Naturals', url: `${TEST_PUBLIC_URL}/store/kesari-naturals` });
    // The store's cashback (the site's default rate) first, as an Offer in words, then its coupons.
    const [cashback, ...offers] = store!.makesOffer as Array<Record<string, string>>;
    expect(cashback).toMatchObject({ '@type': 'Offer', name: 'Up to 5% cashback', category: 'Cashback' });
    expect(offers.map((offer) => offer.name).sort()).toEqual([
      'Amla hair oil 20% off',
      'Saffron face serum 30% off',
    ]);
    for (const offer of offers) {
      expect(offer['@type']).toBe('Offer');
      expect(new Date(offer.validThrough!).getTime()).toBeGreaterThan(Date.now());
    }
    expect(typed(head.jsonLd, 'Product')).toEqual([
      expect.objectContaining({
        name: 'Kumkumadi oil',
        offers: expect.objectContaining({ '@type': 'Offer', price: '1499.00', priceCurrency: 'INR' }),
      }),
    ]);
    expect(byId).toMatchObject({ status: 301 });
    expect(byId.headers.get('location')).toBe('/store/kesari-naturals');
    expect(hindiById.headers.get('location')).toBe('/hi/store/kesari-naturals');
  });

  it('lists the stores A-Z with their live coupons', async () => {
    const page = await crawl('/stores');

    expect(page.status).toBe(200);
    expect(headOf(page.body).title).toBe('All stores A-Z · Offers Marketplace');
    expect(page.body).toContain('href="/store/kesari-naturals"');
    expect(page.body).toContain('2 live coupons');
  });

  it('answers 404 with the site’s own page, in the address’s language, for what does not exist', async () => {
    for (const [path, lang, title] of [
      ['/no-such-page', 'en', 'Page not found'],
      ['/store/no-such-store', 'en', 'Page not found'],
      ['/store/424242', 'en', 'Page not found'],
      ['/hi/no-such-page', 'hi', 'पेज नहीं मिला'],
    ]) {
      const page = await crawl(path!);
      const head = headOf(page.body);
      expect({ path, status: page.status }).toEqual({ path, status: 404 });
      expect(head).toMatchObject({ lang, robots: 'noindex, follow', h1: title });
      expect(head.canonical).toBeUndefined();
    }
  });

  it('keeps one address per page: old addresses, trailing slashes and language homes move for good', async () => {
    const moves = {
      '/faqs': '/faq',
      '/TermsOfService': '/terms',
      '/coupons/': '/coupons',
      '/hi': '/hi/',
      '/hi/faqs': '/hi/faq',
    };
    for (const [from, to] of Object.entries(moves)) {
      const answer = await crawl(from);
      expect({ from, status: answer.status, to: answer.headers.get('location') }).toEqual({
        from,
        status: 301,
        to,
      });
    }
    // The language chosen last is remembered for the home page only.
    const home = await crawl('/', { cookie: 'language=te' });
    expect({ status: home.status, to: home.headers.get('location') }).toEqual({ status: 302, to: '/te/' });
    expect((await crawl('/coupons', { cookie: 'language=te' })).status).toBe(200);
  });

  it('keeps crawlers out of the user area, the API and search results, and names the sitemap', async () => {
    const robots = await crawl('/robots.txt');
    const search = await crawl('/coupons?q=serum');
    const account = await crawl('/account');

    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    for (const line of [
      'User-agent: *',
      'Disallow: /account',
      'Disallow: /hi/account',
      'Disallow: /api/',
      'Disallow: /*?q=',
    ]) {
      expect(robots.body.split('\n')).toContain(line);
    }
    expect(robots.body).toContain(`Sitemap: ${TEST_PUBLIC_URL}/sitemap.xml`);
    expect(headOf(search.body).robots).toBe('noindex, follow');
    expect(search.body).toContain('Saffron face serum 30% off');
    expect(headOf(account.body).robots).toBe('noindex, follow');
  });

  it('lists every store, category and static page in each language in the sitemap, with alternates and lastmod', async () => {
    const sitemap = await crawl('/sitemap.xml');
    const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);

    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(sitemap.body).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    for (const path of [
      '/',
      '/coupons',
      '/stores',
      '/faq',
      '/coupons/skin-care',
      '/coupons/natural-organic',
      '/store/kesari-naturals',
    ]) {
      for (const prefix of ['', '/hi', '/te']) {
        const loc = `${TEST_PUBLIC_URL}${prefix}${path === '/' && prefix ? '/' : path}`;
        expect(locs).toContain(loc);
      }
    }
    expect(locs).toHaveLength(new Set(locs).size);
    expect(locs).toHaveLength(3 * (12 + 8 + 1));
    const store = /<url><loc>https:\/\/offers\.example\.in\/store\/kesari-naturals<\/loc>(.*?)<\/url>/.exec(
      sitemap.body,
    )![1]!;
    expect(store).toMatch(/<lastmod>\d{4}-\d\d-\d\dT[\d:.]+Z<\/lastmod>/);
    expect(store).toContain(
      `<xhtml:link rel="alternate" hreflang="te" href="${TEST_PUBLIC_URL}/te/store/kesari-naturals"/>`,
    );
    expect(store).toContain(
      `<xhtml:link rel="alternate" hreflang="x-default" href="${TEST_PUBLIC_URL}/store/kesari-naturals"/>`,
    );
    expect(
      /<url><loc>https:\/\/offers\.example\.in\/coupons\/skin-care<\/loc><lastmod>/.test(sitemap.body),
    ).toBe(true);
  });

  it('splits the sitemap into an index of files past its limit', async () => {
    const whole = await crawl('/sitemap.xml');
    const index = await crawl('/sitemap.xml', {}, smallSitemaps.url);
    const parts = [
      ...index.body.matchAll(/<loc>https:\/\/offers\.example\.in(\/sitemaps\/\d+\.xml)<\/loc>/g),
    ].map((m) => m[1]!);
    const locs = (xml: string) => [...xml.matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((match) => match[1]);

    expect(index.body).toContain('<sitemapindex');
    expect(parts).toHaveLength(Math.ceil(locs(whole.body).length / 10));
    const listed = [];
    for (const part of parts) {
      const file = await crawl(part, {}, smallSitemaps.url);
      expect(file.status).toBe(200);
      expect(locs(file.body).length).toBeLessThanOrEqual(10);
      listed.push(...locs(file.body));
    }
    expect(listed).toEqual(locs(whole.body));
    expect((await crawl(`/sitemaps/${parts.length + 1}.xml`, {}, smallSitemaps.url)).status).toBe(404);
  });

  // After the sitemap's tests, which count the stores.
  it("asks first for a store's logo when no banner is above it: preloaded, at once, with high priority", async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Mitti Pottery' });
    const approved = await approve(
      market,
      await submitCoupon(market, session, { title: 'Clay pots 15% off' }),
    );
    expect(approved.statusCode).toBe(200);
    const saved = await sendForm(
      market,
      'PUT',
      '/api/merchant/store',
      session.browser,
      { StoreName: 'Mitti Pottery', Tagline: 'Terracotta from Khurja' },
      { MerchantLogo: png(await pngOf(200, 200)) },
    );
    expect(saved.statusCode).toBe(200);
    const logoUrl: string = saved.json().logoUrl;

    // The coupon cards may show the new logo before the store's own header does: each read model
    // follows the change in a transaction of its own.
    const page = await eventually(async () => {
      const crawled = await crawl('/store/mitti-pottery');
      const header = /<img class="store-logo"[^>]*>/.exec(crawled.body)?.[0];
      return crawled.status === 200 && header?.includes(logoUrl) ? crawled : undefined;
    }, 'the store page with its logo');

    const preload =
      /<link rel="preload" as="image" href="([^"]+)" imagesrcset="[^"]+" imagesizes="([^"]+)" fetchpriority="high">/.exec(
        page.body,
      );
    expect(preload?.slice(1)).toEqual([`${logoUrl}?w=640`, '96px']);
    const logo = /<img class="store-logo"[^>]*>/.exec(page.body)?.[0];
    expect(logo).toContain('loading="eager"');
    expect(logo).toContain('fetchPriority="high"');
    expect(logo).toContain('sizes="96px"');
  });
});

describe('how pages are sent', () => {
  it('compresses, revalidates with an ETag and sends the security headers', async () => {
    // Asked again with its ETag, the page is a 304 unless it changed in between: an earlier change
    // (a store's new logo, on its coupon cards) may still be on its way to the lists.
    const { br, again } = await eventually(async () => {
      const first = await crawl('/coupons', { 'accept-encoding': 'br' });
      const second = await crawl('/coupons', { 'if-none-match': first.headers.get('etag')! });
      return second.status === 304 && { br: first, again: second };
    }, 'a 304 for the ETag of the page as it is');
    const stale = await crawl('/coupons', { 'if-none-match': '"an-older-version-of-the-page"' });
    const gzip = await fetch(`${site.url}/coupons`, { headers: { 'accept-encoding': 'gzip' } });
    const policy = br.headers.get('content-security-policy')!;

    expect(br.headers.get('content-encoding')).toBe('br');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(br.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=30');
    expect(br.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(stale.status).toBe(200);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(policy).not.toContain('unsafe-inline');
    expect(br.headers.get('x-content-type-options')).toBe('nosniff');
    expect(br.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('sends a page kept ready without routing it, with the headers and bytes of the routed answer', async () => {
    const routed: string[] = [];
    const counted = await serveSite(market, { routed: (url) => routed.push(url) });
    try {
      const ask = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
        fetch(`${counted.url}${path}`, { method, headers, redirect: 'manual' }).then(async (response) => ({
          status: response.status,
          // undici asks a HEAD to close its connection, which the answer then says.
          headers: Object.fromEntries(
            [...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)),
          ),
          body: Buffer.from(await response.arrayBuffer()),
        }));
      for (const path of ['/', `/store/${slug}`, '/store/no-such-store']) {
        // A change notification drops the kept pages: the page's next request is routed (and
        // rendered), the ones after it are sent as kept. A change in between makes another attempt.
        const { first, ready } = await eventually(async () => {
          await market.api.dataSource.query(`NOTIFY ${LISTINGS_CHANNEL}`);
          const address = path;
          const first = await eventually(async () => {
            const before = routed.length;
            const answer = await ask(address, { 'accept-encoding': 'gzip, deflate, br' });
            return routed.length === before + 1 && answer;
          }, `${path} routed after a change`);
          const before = routed.length;
          const ready = {
            br: await ask(address, { 'accept-encoding': 'gzip, deflate, br' }),
            gzip: await ask(address, { 'accept-encoding': 'gzip' }),
            identity: await ask(address, { 'accept-encoding': 'identity' }),
            head: await ask(address, { 'accept-encoding': 'br' }, 'HEAD'),
            held: await ask(address, { 'if-none-match': first.headers.etag! }),
          };
          return routed.length === before && { first, ready };
        }, `${path} sent without routing once it is kept`);

        expect(ready.br).toEqual(first);
        expect(first.headers['content-encoding']).toBe('br');
        expect(first.headers['x-frame-options']).toBe('DENY');
        expect(first.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(first.headers.vary).toBe('Accept-Encoding');
        expect(ready.gzip.headers['content-encoding']).toBe('gzip');
        expect(ready.identity.headers['content-encoding']).toBeUndefined();
        expect(ready.identity.body.toString()).toContain('<!doctype html>');
        expect(ready.identity.headers['content-length']).toBe(String(ready.identity.body.length));
        expect(ready.head.body.length).toBe(0);
        expect(ready.head.headers).toEqual(first.headers);
        expect(ready.held.status).toBe(path === '/store/no-such-store' ? 404 : 304);
        expect(ready.held.headers.etag).toBe(first.headers.etag);
      }
      // Kept or not, `/` sends a returning visitor to the language they chose, in an answer no
      // cache keeps.
      const chosen = await ask('/', { cookie: 'language=te' });
      expect(chosen.status).toBe(302);
      expect(chosen.headers.location).toBe('/te/');
      expect(chosen.headers['cache-control']).toBe('private, no-store');
    } finally {
      await counted.close();
    }
  });

  it('caches the hashed build files for a year and serves the icons and the web app manifest', async () => {
    const html = (await crawl('/')).body;
    const script = /<script type="module"[^>]* src="(\/assets\/[^"]+\.js)">/.exec(html)![1]!;
    const asset = await crawl(script, { 'accept-encoding': 'gzip, br' });
    const manifest = await crawl('/manifest.webmanifest');

    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-encoding')).toMatch(/^(br|gzip)$/);
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(manifest.status).toBe(200);
    const icons = JSON.parse(manifest.body).icons as Array<{ src: string }>;
    expect(icons.length).toBeGreaterThanOrEqual(2);
    for (const path of [
      '/favicon.svg',
      '/favicon-32.png',
      '/icons/apple-touch-icon.png',
      ...icons.map((i) => i.src),
    ]) {
      expect({ path, status: (await crawl(path)).status }).toEqual({ path, status: 200 });
    }
  });

  it('renders a page once per change: the same bytes until a coupon goes live, then the new coupon', async () => {
    const before = await crawl('/coupons/skin-care');
    const repeat = await crawl('/coupons/skin-care');
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    const id = await submitCoupon(market, session, { title: 'Rose toner 15% off', categoryIds: [SKIN_CARE] });
    await approve(market, id);

    expect(repeat.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(before.body).not.toContain('Rose toner 15% off');
    await eventually(
      async () => (await crawl('/coupons/skin-care')).body.includes('Rose toner 15% off'),
      'the new coupon on the rendered page',
      5_000,
    );
  });

  it('answers odd addresses with a page or a 4xx, never a server error', async () => {
    const odd = [
      '/coupons?sort=random&category=x&category=-1&page=-5&q=%00',
      `/coupons?q=${'x'.repeat(5_000)}`,
      '/coupons/%E0%A4',
      '/store/%2e%2e%2f%2e%2e%2fetc',
      `/store/${'a'.repeat(300)}`,
      '/store/2147483648',
      '/hi/hi/hi',
      '/te/store/',
      '/sitemaps/0.xml',
      '/sitemaps/99999999.xml',
      '/%ff',
      '/account/../../etc/passwd',
    ];
    for (const path of odd) {
      const answer = await crawl(path);
      expect({ path, serverError: answer.status >= 500 }).toEqual({ path, serverError: false });
    }
  });

  it('forwards /api to the API, on the same origin', async () => {
    const answer = await crawl('/api/coupons?perPage=1');

    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).total).toBeGreaterThanOrEqual(2);
  });

  it('keeps the images it forwarded in memory: they never change under their address', async () => {
    const [{ id }] = await market.api.dataSource.query('SELECT id FROM media ORDER BY created_at LIMIT 1');
    const address = `/api/media/${id}?w=160`;
    const webp = { accept: 'image/avif,image/webp,*/*' };
    const first = await fetch(`${site.url}${address}`, { headers: webp });
    const bytes = Buffer.from(await first.arrayBuffer());
    expect([first.status, first.headers.get('content-type'), first.headers.get('cache-control')]).toEqual([
      200,
      'image/webp',
      'public, max-age=31536000, immutable',
    ]);
    const etag = first.headers.get('etag')!;
    expect(
      (await fetch(`${site.url}${address}`, { headers: { ...webp, 'if-none-match': etag } })).status,
    ).toBe(304);

    // Were the site to ask the API again, it would now get other bytes; it does not.
    const other = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    await market.api.dataSource.query(
      "UPDATE media_variants SET bytes = $2 WHERE media_id = $1 AND content_type = 'image/webp'",
      [id, await sharp(other).webp().toBuffer()],
    );
    const fromApi = Buffer.from(
      await (await fetch(`${market.api.baseUrl}${address}`, { headers: webp })).arrayBuffer(),
    );
    expect(fromApi.equals(bytes)).toBe(false);
    const again = await fetch(`${site.url}${address}`, { headers: webp });
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    // A browser without WebP gets the API's other format, kept apart.
    const plain = await fetch(`${site.url}${address}`, { headers: { accept: 'image/*' } });
    expect(plain.headers.get('content-type')).not.toBe('image/webp');
    // What the API does not have is not kept, and passes through as it is.
    expect((await crawl('/api/media/00000000-0000-4000-8000-000000000000?w=160')).status).toBe(404);
    expect((await crawl(`/api/media/${id}?w=161`)).status).toBe(400);
  });
});

describe('in the browser', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('paints the first screen before the app is fetched, and hydrates without building an Intl format', async () => {
    const context = await browser.newContext({ baseURL: site.url, viewport: { width: 390, height: 844 } });
    // Counts the Intl objects the page builds: the first one makes the browser load its locale
    // data, a long task on a phone in the middle of hydration.
    await context.addInitScript(`(() => {
      const built = (window.intlBuilt = []);
      for (const name of ['NumberFormat', 'DateTimeFormat', 'PluralRules', 'Collator', 'RelativeTimeFormat', 'ListFormat']) {
        Intl[name] = new Proxy(Intl[name], {
          construct: (target, args) => (built.push(name), Reflect.construct(target, args)),
          apply: (target, self, args) => (built.push(name), Reflect.apply(target, self, args)),
        });
      }
    })()`);
    for (const path of ['/', '/coupons', `/hi/store/${slug}`, '/te/coupons/skin-care']) {
      const page = await context.newPage();
      await visit(page, path);
      // Hydrated (React's handlers answer) with the server's rupees and dates.
      await page.getByRole('button', { name: /Sign in \/ Register|साइन इन|సైన్ ఇన్/ }).click();
      await page.locator('.account-menu .menu:not([hidden])').waitFor();
      expect([path, await page.evaluate('window.intlBuilt')]).toEqual([path, []]);

      // The HTML asks for no script while the first screen loads; the app's modules, listed in the
      // page, are fetched once the document is parsed and its main image has arrived.
      const html = await (await fetch(`${site.url}${path}`)).text();
      expect(html).not.toContain('modulepreload');
      const timing = (await page.evaluate(`(() => {
        const modules = document.getElementById('page-data').dataset.modules.split(' ');
        const resources = performance.getEntriesByType('resource');
        const image = document.querySelector('img[fetchpriority="high"]');
        const imageEntry = image && resources.find((entry) => entry.name === image.currentSrc);
        return {
          modules: modules.map((href) => resources.find((entry) => entry.name === new URL(href, location.href).href)?.startTime ?? -1),
          parsed: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
          imageLoaded: imageEntry ? imageEntry.responseEnd : 0,
        };
      })()`)) as { modules: number[]; parsed: number; imageLoaded: number };
      expect(timing.modules.length).toBeGreaterThan(3);
      for (const startTime of timing.modules) {
        expect([path, startTime]).toEqual([path, expect.any(Number)]);
        expect(startTime).toBeGreaterThanOrEqual(Math.max(timing.parsed, timing.imageLoaded));
      }
      await page.close();
    }
    await context.close();
  }, 60_000);

  // Nine pages loaded and hydrated one after another: slow when the machine runs other browsers.
  it.each([
    ['a phone', { width: 390, height: 844 }],
    ['a desktop', { width: 1366, height: 900 }],
  ])(
    'hydrates every kind of page on %s without a console error',
    async (_, viewport) => {
      const problems: string[] = [];
      const context = await browser.newContext({ baseURL: site.url, viewport });
      await context.route(
        (url) => url.hostname !== '127.0.0.1',
        (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>shop</title>' }),
      );
      for (const path of [
        '/',
        '/coupons',
        '/coupons/skin-care',
        `/store/${slug}`,
        '/stores',
        '/hi/',
        '/te/coupons',
        '/faq',
        '/no-such-page',
      ]) {
        const page = await context.newPage();
        page.on('console', (message) => {
          // The not-found page's own document is a 404: the browser says so, nothing is wrong.
          if (message.type() === 'error' && !message.text().includes('404'))
            problems.push(`${path}: ${message.text()}`);
        });
        page.on('pageerror', (error) => problems.push(`${path}: ${error.message}`));
        await visit(page, path);
        await page.locator('#root > header').waitFor();
        // Hydrated: React's handlers answer (the account menu opens on a click).
        await page.getByRole('button', { name: /Sign in \/ Register|साइन इन|సైన్ ఇన్/ }).click();
        await page.locator('.account-menu .menu:not([hidden])').waitFor();
        await page.close();
      }
      await context.close();

      expect(problems).toEqual([]);
    },
    150_000,
  );
});
