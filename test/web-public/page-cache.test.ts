import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storeImage } from '@offers/api/read-models';
import Fastify from 'fastify';
import sharp from 'sharp';
import { ImageCache, serveImages } from '../../web-public/server/image-cache.js';
import { registerAndSignInMerchant } from '../support/accounts.js';
import type { WebApp } from '../support/browser.js';
import { approve, type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';
import { serveSite, untilAllListed } from '../support/web-public.js';

/**
 * The site's kept pages under traffic that varies the address: a page is kept under its canonical
 * address (the parameters it reads, in a fixed order), so campaign parameters and junk get the
 * canonical page's bytes without a render; values that name nothing move to the canonical page;
 * searches are rendered but kept only within a bounded share; past the bound the least recently
 * asked page goes, never the whole cache.
 */

const SKIN_CARE = 1;

let market: Marketplace;

beforeAll(async () => {
  market = await startMarketplace('web_public_page_cache');
  const { session } = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Neem Leaf' });
  const id = await submitCoupon(market, session, {
    title: 'Neem face wash 25% off',
    categoryIds: [SKIN_CARE],
  });
  const approved = await approve(market, id);
  if (approved.statusCode !== 200) throw new Error(approved.body);
  await untilAllListed(market, 1);
}, 180_000);

afterAll(async () => {
  await market?.close();
});

const random = () => randomBytes(6).toString('hex');

/** A site that tells which requests reach Fastify's routing and which pages it renders. */
async function countedSite(pageCache?: { maxPages?: number; maxApartPages?: number }) {
  const routed: string[] = [];
  const rendered: string[] = [];
  const site = await serveSite(market, {
    routed: (url) => routed.push(url),
    rendered: (address) => rendered.push(address),
    pageCache,
  });
  const ask = async (path: string) => {
    const response = await fetch(`${site.url}${path}`, {
      headers: { 'accept-encoding': 'br' },
      redirect: 'manual',
    });
    return {
      status: response.status,
      location: response.headers.get('location'),
      etag: response.headers.get('etag'),
      body: Buffer.from(await response.arrayBuffer()),
    };
  };
  /** Whether asking `path` now needs neither routing nor a render. */
  const keptNow = async (path: string) => {
    const before = [routed.length, rendered.length];
    const answer = await ask(path);
    return routed.length === before[0] && rendered.length === before[1] && answer;
  };
  /** Asks until the page is kept (the notification connection may still be starting). */
  const keep = (path: string) => eventually(() => keptNow(path), `${path} kept`);
  return { site, routed, rendered, ask, keptNow, keep };
}

async function closing<T>(site: WebApp, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } finally {
    await site.close();
  }
}

describe('kept pages by canonical address', () => {
  it('sends the canonical page’s bytes for campaign parameters and junk, without routing or rendering', async () => {
    const counted = await countedSite();
    await closing(counted.site, async () => {
      const variants: Record<string, string[]> = {
        '/coupons': [
          'utm_source=newsletter&utm_medium=email&utm_campaign=diwali',
          'gclid=Cj0KCQiA',
          'fbclid=IwAR2x',
          `x=${random()}`,
          `page=${random()}`,
          'sort=popular',
        ],
        '/': [`x=${random()}`, 'utm_source=whatsapp'],
        '/hi/coupons/skin-care': [`utm_source=${random()}`],
      };
      // A change notification in between would drop the pages: then the attempt is made again.
      const seen = await eventually(async () => {
        const answers: Array<{ path: string; same: boolean; status: number }> = [];
        for (const [path, queries] of Object.entries(variants)) {
          const canonical = await counted.keep(path);
          for (const query of queries) {
            const answer = await counted.keptNow(`${path}?${query}`);
            if (!answer) return false;
            answers.push({
              path: `${path}?${query}`,
              same: answer.body.equals(canonical.body),
              status: answer.status,
            });
          }
        }
        return answers;
      }, 'every variant sent as kept');
      for (const answer of seen) expect(answer).toEqual({ path: answer.path, same: true, status: 200 });

      // The page still names its canonical address, whatever the visitor's address carried.
      const page = (await counted.ask('/coupons?utm_source=newsletter')).body.toString();
      expect(page).toContain('<link rel="canonical" href="https://offers.example.in/coupons">');
    });
  });

  it('keeps the canonical pages through 2,100 addresses with random parameters', async () => {
    const counted = await countedSite();
    await closing(counted.site, async () => {
      const pages = ['/', '/coupons', '/hi/', '/te/offers'];
      const outcome = await eventually(
        async () => {
          for (const path of pages) await counted.keep(path);
          const before = counted.rendered.length;
          for (let i = 0; i < 2_100; i += 1) {
            const path = pages[i % pages.length]!;
            await counted.ask(
              `${path}${path.includes('?') ? '&' : '?'}utm_content=${random()}&${random()}=${i}`,
            );
          }
          const renders = counted.rendered.length - before;
          const stillKept = [];
          for (const path of pages) stillKept.push(Boolean(await counted.keptNow(path)));
          // Renders only after a change notification, which makes the attempt again.
          return renders === 0 && stillKept;
        },
        'a round without a change',
        120_000,
      );
      expect(outcome).toEqual([true, true, true, true]);
    });
  }, 180_000);

  it('answers values that name nothing with a redirect to the page without them, and an unknown category with 404', async () => {
    const counted = await countedSite();
    await closing(counted.site, async () => {
      const moved = async (path: string) => {
        const answer = await counted.ask(path);
        return { path, status: answer.status, location: answer.location };
      };
      expect(await moved('/coupons?sort=bogus')).toEqual({
        path: '/coupons?sort=bogus',
        status: 302,
        location: '/coupons',
      });
      expect(await moved('/top-offers?sort=verified&utm_source=x')).toEqual({
        path: '/top-offers?sort=verified&utm_source=x',
        status: 302,
        location: '/top-offers',
      });
      expect(await moved('/coupons?category=abc&sort=az')).toEqual({
        path: '/coupons?category=abc&sort=az',
        status: 302,
        location: '/coupons?sort=az',
      });
      expect(await moved('/hi/coupons?category=999999&category=1')).toEqual({
        path: '/hi/coupons?category=999999&category=1',
        status: 302,
        location: '/hi/coupons?category=1',
      });
      expect(await moved('/categories?name=No+Such+Category')).toEqual({
        path: '/categories?name=No+Such+Category',
        status: 302,
        location: '/categories',
      });
      expect((await counted.ask(`/coupons/no-such-category?utm_source=${random()}`)).status).toBe(404);
      // What does name something is the list itself, kept under one address in one order.
      const sorted = await counted.ask('/coupons?category=1&sort=az');
      expect(sorted.status).toBe(200);
      const reordered = await eventually(
        () => counted.keptNow('/coupons?sort=az&category=1&category=1&utm_term=x'),
        'the same list in another order sent as kept',
      );
      expect(reordered.status).toBe(200);
    });
  });

  it('renders a search, keeps searches within their share, and never lets them evict the pages', async () => {
    const counted = await countedSite({ maxPages: 20, maxApartPages: 2 });
    await closing(counted.site, async () => {
      const outcome = await eventually(async () => {
        await counted.keep('/coupons');
        await counted.keep('/');
        const before = counted.rendered.length;
        const searches = Array.from({ length: 12 }, () => `/coupons?q=${random()}`);
        for (const search of searches) {
          const answer = await counted.ask(search);
          if (answer.status !== 200 || !answer.body.toString().includes('noindex')) return false;
        }
        const rendered = counted.rendered.length - before;
        // The share holds the last two searches: the latest is kept, the first was evicted.
        const latestKept = Boolean(await counted.keptNow(searches.at(-1)!));
        const firstKept = Boolean(await counted.keptNow(searches[0]!));
        const pagesKept = [Boolean(await counted.keptNow('/coupons')), Boolean(await counted.keptNow('/'))];
        return { rendered, latestKept, firstKept, pagesKept };
      }, 'a round without a change');
      expect(outcome).toEqual({ rendered: 12, latestKept: true, firstKept: false, pagesKept: [true, true] });
    });
  });

  it('evicts the least recently asked page past the bound, not every page', async () => {
    const counted = await countedSite({ maxPages: 4, maxApartPages: 1 });
    await closing(counted.site, async () => {
      const outcome = await eventually(async () => {
        for (const path of ['/', '/coupons', '/offers', '/stores']) await counted.keep(path);
        // `/` is asked again: `/coupons` is now the least recently asked, and goes for a fifth page.
        if (!(await counted.keptNow('/'))) return false;
        await counted.keep('/faq');
        return {
          home: Boolean(await counted.keptNow('/')),
          stores: Boolean(await counted.keptNow('/stores')),
          faq: Boolean(await counted.keptNow('/faq')),
          coupons: Boolean(await counted.keptNow('/coupons')),
        };
      }, 'a round without a change');
      expect(outcome).toEqual({ home: true, stores: true, faq: true, coupons: false });
    });
  });

  it('drops kept pages and searches when a change arrives: both show the new coupon', async () => {
    const counted = await countedSite();
    await closing(counted.site, async () => {
      await counted.keep('/coupons');
      await counted.keep('/coupons?q=saffron');
      expect((await counted.ask('/coupons?q=saffron')).body.toString()).not.toContain('Saffron soap 10% off');
      const { session } = await registerAndSignInMerchant(market.api.baseUrl);
      const id = await submitCoupon(market, session, {
        title: 'Saffron soap 10% off',
        categoryIds: [SKIN_CARE],
      });
      await approve(market, id);
      for (const path of ['/coupons', '/coupons?q=saffron', '/coupons?utm_source=x&q=saffron']) {
        await eventually(
          async () => (await counted.ask(path)).body.toString().includes('Saffron soap 10% off'),
          `the new coupon on ${path}`,
        );
      }
    });
  });
});

describe("the site's image cache", () => {
  it('keeps one copy per image and width, whatever else the address carries', async () => {
    const image = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#2a9d8f' } })
      .png()
      .toBuffer();
    const id = await storeImage(market.api.dataSource.manager, image, 'image');
    const cache = new ImageCache();
    const app = Fastify();
    serveImages(app, market.api.baseUrl, cache);
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/media/${id}`;
      const webp = { accept: 'image/webp,*/*' };
      const bodies: Buffer[] = [];
      for (const query of ['?w=160', `?w=160&utm_source=${random()}`, `?${random()}=1&w=160`, '?w=0160']) {
        const response = await fetch(`${base}${query}`, { headers: webp });
        expect({ query, status: response.status }).toEqual({ query, status: 200 });
        bodies.push(Buffer.from(await response.arrayBuffer()));
      }
      expect(bodies.every((body) => body.equals(bodies[0]!))).toBe(true);
      expect(cache.size).toBe(1);
      expect((await fetch(`${base}?w=abc`, { headers: webp })).status).toBe(400);
      expect(cache.size).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('is bounded by entries and bytes, the least recently used going first', () => {
    const image = (bytes: number) => ({ status: 200, headers: {}, body: Buffer.alloc(bytes) });
    const byEntries = new ImageCache(1 << 20, 3);
    for (const key of ['a', 'b', 'c']) byEntries.set(key, image(10));
    byEntries.get('a');
    byEntries.set('d', image(10));
    expect(['a', 'b', 'c', 'd'].map((key) => byEntries.get(key) !== undefined)).toEqual([
      true,
      false,
      true,
      true,
    ]);

    const byBytes = new ImageCache(100, 100);
    for (const key of ['a', 'b', 'c']) byBytes.set(key, image(40));
    expect(['a', 'b', 'c'].map((key) => byBytes.get(key) !== undefined)).toEqual([false, true, true]);
    expect(byBytes.size).toBe(2);
  });
});
