import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { LISTINGS_CHANNEL } from '@offers/api/events';
import { ListingCache } from '@offers/api/read-models';
import { CATEGORIES } from '@offers/api/rules';
import { type Marketplace, merchantWithCoupon, startMarketplace } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

let market: Marketplace;

beforeAll(async () => {
  market = await startMarketplace('catalog');
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, payload?: unknown) =>
  market.api.http.inject({ method, url, headers: market.admin, payload });

it('lists the eight categories in shop-front order, each once', async () => {
  const response = await market.api.http.inject({ method: 'GET', url: '/api/categories' });

  expect(response.json().map((category: { name: string }) => category.name)).toEqual([...CATEGORIES]);
  const duplicate = await market.api.dataSource
    .query("INSERT INTO categories (name) VALUES ('skin care')")
    .catch((error: Error) => error);
  expect(duplicate).toBeInstanceOf(Error);
});

it('keeps slots: free or paid with a price in rupees, a capacity, unique names', async () => {
  const paidWithoutPrice = await inject('POST', '/api/admin/slots', {
    name: 'Banner',
    kind: 'paid',
    capacity: 3,
  });
  const badCapacity = await inject('POST', '/api/admin/slots', { name: 'Banner', kind: 'free', capacity: 0 });
  const created = await inject('POST', '/api/admin/slots', {
    name: 'Banner',
    kind: 'paid',
    price: '1499.5',
    capacity: 3,
  });
  const sameName = await inject('POST', '/api/admin/slots', { name: 'banner', kind: 'free', capacity: 3 });
  const madeFree = await inject('PUT', `/api/admin/slots/${created.json().id}`, { kind: 'free' });
  const list = await inject('GET', '/api/admin/slots');

  expect(paidWithoutPrice.statusCode).toBe(400);
  expect(Object.keys(paidWithoutPrice.json().errors)).toEqual(['price']);
  expect(badCapacity.json().errors).toEqual({ capacity: ['Capacity is a whole number from 1.'] });
  expect(created.json()).toMatchObject({ kind: 'paid', price: '1499.50', capacity: 3 });
  expect(sameName.statusCode).toBe(409);
  expect(madeFree.json()).toMatchObject({ kind: 'free', price: null });
  expect(list.headers['content-range']).toBe(`slots 0-3/4`);
});

it('keeps a slot that a coupon names', async () => {
  await merchantWithCoupon(market, { requestedSlotId: '1' });

  const response = await inject('DELETE', '/api/admin/slots/1');

  expect(response.statusCode).toBe(409);
  expect((await inject('GET', '/api/admin/slots/1')).statusCode).toBe(200);
});

it('never keeps a list read before a change that arrived while it was read', async () => {
  const cache = market.api.app.get(ListingCache);
  await cache.get('sentinel', '/sentinel', async () => 'sentinel');
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const slowRead = cache.get('list', '/list', async () => {
    await gate;
    return 'before the change';
  });

  await market.api.dataSource.query(`SELECT pg_notify('${LISTINGS_CHANNEL}', '')`);
  await eventually(async () => cache.peek('/sentinel') === undefined, 'the change to reach the cache');
  release();

  expect(String(await slowRead)).toBe('before the change');
  expect(String(await cache.get('list', '/list', async () => 'after the change'))).toBe('after the change');
});
