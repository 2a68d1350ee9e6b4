import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Metrics } from '@offers/api/infrastructure/metrics/metrics';
import { registerAndSignInMerchant } from '../support/accounts.js';
import {
  approve,
  type Marketplace,
  startMarketplace,
  submitCoupon,
  untilEventsProcessed,
} from '../support/marketplace.js';

/**
 * Search that forgives word forms, prefixes, small typos, store and category names, in English,
 * Hindi and Telugu, ranked with title and store name above the description.
 */

let market: Marketplace;
const ids: Record<string, number> = {};
const HAIR_CARE = 3;

beforeAll(async () => {
  market = await startMarketplace('coupon search');
  const { session: glow } = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Glowberry' });
  const { session: other } = await registerAndSignInMerchant(market.api.baseUrl, {
    brandName: 'Desi Basket',
  });
  for (const [key, merchant, title, description, categoryIds] of [
    ['serums', glow, 'Flat 40% off on face serums', 'Vitamin C and niacinamide.', [1]],
    ['lipsticks', glow, 'Matte lipsticks: buy 2, get 1', 'All shades.', [2]],
    ['shampoo', other, 'Onion shampoo 20% off', 'For strong roots.', [HAIR_CARE]],
    ['described', other, 'Weekend sale 10% off', 'Includes a face serum gift box.', [5]],
    ['hindi', other, 'नीम फेस वॉश पर 25% छूट', 'सभी त्वचा के लिए।', [1]],
    ['telugu', other, 'వేప ఫేస్ వాష్ పై 15% తగ్గింపు', 'అన్ని చర్మ రకాలకు.', [1]],
  ] as const) {
    const id = await submitCoupon(market, merchant, { title, description, categoryIds: [...categoryIds] });
    expect((await approve(market, id)).statusCode).toBe(200);
    ids[key] = id;
  }
  await untilEventsProcessed(market);
}, 90_000);

afterAll(async () => {
  await market?.close();
});

async function search(q: string) {
  const response = await market.api.http.inject({
    method: 'GET',
    url: `/api/coupons?perPage=100&q=${encodeURIComponent(q)}`,
  });
  expect(response.statusCode).toBe(200);
  const ours = new Set(Object.values(ids));
  return (response.json().data as Array<{ id: number }>)
    .map((card) => card.id)
    .filter((id) => ours.has(id))
    .map((id) => Object.entries(ids).find(([, value]) => value === id)![0]);
}

describe('search that forgives', () => {
  it('finds word forms: "serum" finds serums, "lipstick" lipsticks', async () => {
    expect(await search('serum')).toEqual(['serums', 'described']);
    expect(await search('lipstick')).toEqual(['lipsticks']);
  });

  it('finds what is being typed: "lipst", "sham"', async () => {
    expect(await search('lipst')).toEqual(['lipsticks']);
    expect(await search('sham')).toEqual(['shampoo']);
  });

  it('forgives small typos: "shampo", "lipstik"', async () => {
    expect(await search('shampo')).toEqual(['shampoo']);
    expect(await search('lipstik')).toEqual(['lipsticks']);
  });

  it('finds store and category names', async () => {
    expect((await search('glowberry')).sort()).toEqual(['lipsticks', 'serums']);
    expect(await search('hair care')).toEqual(['shampoo']);
  });

  it('finds Hindi and Telugu words, and their beginnings', async () => {
    expect(await search('नीम')).toEqual(['hindi']);
    expect(await search('वॉश')).toEqual(['hindi']);
    expect(await search('వేప')).toEqual(['telugu']);
    expect(await search('తగ్గిం')).toEqual(['telugu']);
  });

  it('ranks a match in the title above one in the description, and needs every word', async () => {
    expect(await search('face serum')).toEqual(['serums', 'described']);
    expect(await search('serum shampoo')).toEqual([]);
  });

  it('answers text without a word with no coupons, never an error', async () => {
    for (const q of ['%%%', '!!', ':*', "'", '&|!()']) expect(await search(q)).toEqual([]);
  });
});

describe('suggestions as one types (GET /api/search/suggest)', () => {
  async function suggest(q: string) {
    const response = await market.api.http.inject({
      method: 'GET',
      url: `/api/search/suggest?q=${encodeURIComponent(q)}`,
    });
    return { status: response.statusCode, body: response.json() };
  }
  const titles = (body: { coupons: Array<{ title: string }> }) => body.coupons.map((coupon) => coupon.title);

  it('offers stores, categories and coupons for a beginning, a word or a typo', async () => {
    const glow = (await suggest('glow')).body;
    expect(glow.stores).toEqual([expect.objectContaining({ name: 'Glowberry', slug: 'glowberry' })]);
    expect(titles(glow).sort()).toEqual(['Flat 40% off on face serums', 'Matte lipsticks: buy 2, get 1']);
    expect(glow.coupons[0].merchant).toEqual(
      expect.objectContaining({ name: 'Glowberry', slug: 'glowberry' }),
    );

    const hair = (await suggest('hair')).body;
    expect(hair.categories).toEqual([{ id: HAIR_CARE, name: 'Hair Care', slug: 'hair-care' }]);
    expect(titles(hair)).toEqual(['Onion shampoo 20% off']);

    expect((await suggest('glowbery')).body.stores.map((store: { name: string }) => store.name)).toEqual([
      'Glowberry',
    ]);
    expect(titles((await suggest('shampo')).body)).toEqual(['Onion shampoo 20% off']);
    expect(titles((await suggest('नीम')).body)).toEqual(['नीम फेस वॉश पर 25% छूट']);
  });

  it('answers nothing for no words, and a 400 for text it cannot take', async () => {
    for (const q of ['', '   ', '%%', "'"]) {
      expect(await suggest(q)).toEqual({ status: 200, body: { stores: [], categories: [], coupons: [] } });
    }
    expect((await suggest('a\u0000b')).status).toBe(400);
    expect((await suggest('x'.repeat(101))).status).toBe(400);
  });

  it('offers five of each at most', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Many Offers' });
    for (let index = 0; index < 7; index += 1) {
      const id = await submitCoupon(market, session, { title: `Kumkum tilak pack ${index}` });
      await approve(market, id);
    }
    await untilEventsProcessed(market);
    expect((await suggest('kumkum')).body.coupons).toHaveLength(5);
  });

  it('answers a repeated word from memory, and follows the next coupon that matches it', async () => {
    const hits = async () =>
      (await market.api.app.get(Metrics).cacheRequests.get()).values.find(
        (value) => value.labels.cache === 'suggestions' && value.labels.result === 'hit',
      )?.value ?? 0;
    const first = await suggest('rosewater');
    const before = await hits();
    const again = await suggest('rosewater');
    expect(await hits()).toBe(before + 1);
    expect(again).toEqual(first);

    const { session } = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Gulab House' });
    const id = await submitCoupon(market, session, { title: 'Rosewater toner 30% off' });
    await approve(market, id);
    await untilEventsProcessed(market);

    expect(titles((await suggest('rosewater')).body)).toEqual(['Rosewater toner 30% off']);
  });
});
