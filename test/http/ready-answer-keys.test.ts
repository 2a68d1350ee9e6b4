import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ReadyCache } from '@offers/api/platform';
import { HomeContentCache, ListingCache } from '@offers/api/read-models';
import { registerAndSignInMerchant } from '../support/accounts.js';
import {
  approve,
  type Marketplace,
  startMarketplace,
  submitCoupon,
  untilListed,
} from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

/**
 * The API's ready answers under requests that vary the address: an answer is kept under its
 * canonical key (what the validated query asks), a URL leads to it only when it names the
 * route's parameters alone, searches and empty lists are kept within a bounded share, and past
 * the bound the least recently used answer goes, never the whole cache.
 */

let market: Marketplace;
let listings: ListingCache;
let home: HomeContentCache;

beforeAll(async () => {
  // Over a thousand searches from this machine: past the per-address limits they would be refused
  // before reaching the cache this file is about (test/http/rate-limits.test.ts checks the limits).
  market = await startMarketplace('ready_answer_keys', { settings: { RATE_LIMIT_EXEMPT: 'loopback' } });
  const { session } = await registerAndSignInMerchant(market.api.baseUrl);
  const id = await submitCoupon(market, session, { title: 'Tulsi tea 15% off' });
  await approve(market, id);
  await untilListed(market, id);
  listings = market.api.app.get(ListingCache);
  home = market.api.app.get(HomeContentCache);
}, 120_000);

afterAll(async () => {
  await market?.close();
});

const random = () => randomBytes(6).toString('hex');
const get = (url: string) => market.api.http.inject({ method: 'GET', url });

/** Asks `url` until its answer is kept under it (the notification connection may be starting). */
const kept = (cache: { peek(url: string): unknown }, url: string) =>
  eventually(async () => {
    const answer = await get(url);
    return cache.peek(url) !== undefined && answer;
  }, `${url} kept`);

describe('ready answers by canonical request', () => {
  it('answers parameters the home page does not read from its kept answer, and keeps nothing for them', async () => {
    const canonical = await kept(home, '/api/home');
    const before = home.counts;
    const junk = Array.from({ length: 300 }, (_, i) => `/api/home?utm_source=${random()}&${random()}=${i}`);
    for (const url of junk) {
      const answer = await get(url);
      expect({ url, status: answer.statusCode, same: answer.body === canonical.body }).toEqual({
        url,
        status: 200,
        same: true,
      });
    }
    expect(junk.filter((url) => home.peek(url) !== undefined)).toEqual([]);
    expect(home.counts).toEqual(before);
    expect(home.peek('/api/home')).toBeDefined();
  });

  it('refuses unknown parameters of the lists as before, and keeps nothing for them', async () => {
    for (const url of [
      `/api/coupons?utm_source=${random()}`,
      '/api/coupons?sort=bogus',
      '/api/coupons?page=0',
    ]) {
      const answer = await get(url);
      expect({ url, status: answer.statusCode }).toEqual({ url, status: 400 });
      expect(listings.peek(url)).toBeUndefined();
    }
  });

  it('keeps 1,100 random searches and empty pages within their share: the lists stay kept', async () => {
    const canonical = '/api/coupons?perPage=5';
    const outcome = await eventually(
      async () => {
        await kept(listings, canonical);
        const before = listings.counts;
        for (let i = 0; i < 1_100; i += 1) {
          const answer = await get(i % 2 ? `/api/coupons?q=${random()}` : `/api/coupons?page=${1_000 + i}`);
          if (answer.statusCode !== 200) throw new Error(answer.body);
        }
        const after = listings.counts;
        // A change notification empties the cache (and the attempt is made again).
        return (
          after.entries === before.entries && {
            stillKept: listings.peek(canonical) !== undefined,
            apart: after.apart,
            aliases: after.aliases - before.aliases,
          }
        );
      },
      'a round without a change',
      120_000,
    );
    // The share is a tenth of the cache's 2,000 answers; searches are found after routing only.
    expect(outcome).toEqual({ stillKept: true, apart: 200, aliases: 0 });

    // The same list asked in another order is the same answer: one more address, not one more answer.
    const entries = listings.counts.entries;
    const reordered = await get('/api/coupons?sort=popular&perPage=5&page=1');
    expect(reordered.body).toBe((await get(canonical)).body);
    expect(listings.counts.entries).toBe(entries);
  }, 180_000);
});

describe('ReadyCache', () => {
  const channel = `ready_cache_test_${random()}`;
  const builds: string[] = [];
  const build =
    (key: string, apart = false) =>
    async () => {
      builds.push(key);
      return { value: `answer of ${key}`, apart };
    };
  let cache: ReadyCache<string>;

  beforeAll(async () => {
    cache = new ReadyCache(market.test.environment.DATABASE_DIRECT_URL, [channel], console, {
      maxEntries: 3,
      maxApartEntries: 2,
      maxBytes: 1_000,
      sizeOf: (value) => (value.endsWith('large') ? 900 : 60),
      maxAgeMs: 600_000,
    });
    cache.start();
    await eventually(async () => cache.listening, 'the cache listening');
  });

  afterAll(() => cache.stop());

  const buildsOf = async (keys: string[]) => {
    builds.length = 0;
    for (const key of keys) await cache.get(key, build(key));
    return [...builds];
  };

  it('evicts the least recently used answer past its bound, not every answer', async () => {
    expect(await buildsOf(['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
    // `a` used again: `b` is the least recently used when `d` needs room.
    expect(await buildsOf(['a', 'd'])).toEqual(['d']);
    expect(await buildsOf(['a', 'c', 'd', 'b'])).toEqual(['b']);
    expect(cache.counts.entries).toBe(3);
  });

  it('bounds the bytes kept as well as the answers', async () => {
    builds.length = 0;
    await cache.get('x-large', build('x-large'));
    // 900 bytes of 1,000: of the small answers (60 each) only one fits beside it.
    expect(cache.peek('x-large')).toBe('answer of x-large');
    expect(cache.counts.entries).toBeLessThanOrEqual(3);
    expect(['a', 'b', 'c', 'd'].filter((key) => cache.peek(key) !== undefined).length).toBeLessThanOrEqual(1);
  });

  it('keeps answers apart in their own share, which never evicts the others', async () => {
    await buildsOf(['a', 'b', 'c']);
    for (let i = 0; i < 10; i += 1) await cache.get(`search ${i}`, build(`search ${i}`, true));
    expect(cache.counts).toEqual({ entries: 3, apart: 2, aliases: 0 });
    expect(await buildsOf(['a', 'b', 'c', 'search 9'])).toEqual([]);
    expect(await buildsOf(['search 0'])).toEqual(['search 0']);
  });

  it('finds an answer by its alias, and drops everything when a change is notified', async () => {
    await cache.get('a', build('a'), '/a?x=1');
    expect(cache.peek('/a?x=1')).toBe('answer of a');
    await market.api.dataSource.query(`NOTIFY ${channel}`);
    await eventually(async () => cache.counts.entries === 0, 'the answers dropped');
    expect(cache.peek('/a?x=1')).toBeUndefined();
    expect(cache.counts).toEqual({ entries: 0, apart: 0, aliases: 0 });
    await eventually(async () => cache.listening, 'the cache listening');
    expect(await buildsOf(['a', 'a'])).toEqual(['a']);
  });
});
